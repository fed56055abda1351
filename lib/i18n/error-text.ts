import type { Locale } from "../checkout/types";

/**
 * The error pages' words in the four languages. Apart from the catalogues on purpose: error.tsx is
 * a client component on every page, and importing a catalogue would ship all four of them to every
 * browser. Kept to what a payer needs when something broke: that no money moved because of it, a
 * retry and a way back; and, when the database did not answer (a restart), that the page will try
 * again by itself.
 */
export const ERROR_TEXT: Readonly<
  Record<
    Locale,
    { title: string; body: string; retry: string; back: string; awayTitle: string; awayBody: string; awayRetry: string }
  >
> = {
  en: {
    title: "Something went wrong",
    body: "This page could not be shown. No payment was made because of this error.",
    retry: "Try again",
    back: "Go back",
    awayTitle: "Back in a moment",
    awayBody: "The checkout cannot reach its records just now. Nothing was paid or lost.",
    awayRetry: "This page tries again by itself in 5 seconds.",
  },
  lt: {
    title: "Kažkas nepavyko",
    body: "Šio puslapio nepavyko parodyti. Dėl šios klaidos joks mokėjimas nebuvo atliktas.",
    retry: "Bandyti dar kartą",
    back: "Grįžti atgal",
    awayTitle: "Tuoj grįšime",
    awayBody: "Mokėjimo puslapis šiuo metu nepasiekia savo duomenų. Niekas nesumokėta ir neprarasta.",
    awayRetry: "Puslapis pats bandys dar kartą po 5 sekundžių.",
  },
  lv: {
    title: "Kaut kas nogāja greizi",
    body: "Šo lapu neizdevās parādīt. Šīs kļūdas dēļ neviens maksājums netika veikts.",
    retry: "Mēģināt vēlreiz",
    back: "Atgriezties",
    awayTitle: "Tūlīt būsim atpakaļ",
    awayBody: "Maksājumu lapa šobrīd nevar piekļūt saviem datiem. Nekas netika samaksāts vai pazaudēts.",
    awayRetry: "Lapa pati mēģinās vēlreiz pēc 5 sekundēm.",
  },
  et: {
    title: "Midagi läks valesti",
    body: "Seda lehte ei õnnestunud näidata. Selle vea tõttu makset ei tehtud.",
    retry: "Proovi uuesti",
    back: "Mine tagasi",
    awayTitle: "Kohe oleme tagasi",
    awayBody: "Makseleht ei pääse praegu oma andmetele ligi. Midagi ei makstud ega läinud kaduma.",
    awayRetry: "Leht proovib 5 sekundi pärast ise uuesti.",
  },
};

/** The page's language as the document says it (set from the checkout's locale), else English. */
export function errorTextFor(lang: string | undefined) {
  const base = (lang ?? "").slice(0, 2).toLowerCase();
  return {
    lang: base in ERROR_TEXT ? (base as Locale) : "en",
    ...ERROR_TEXT[base in ERROR_TEXT ? (base as Locale) : "en"],
  };
}

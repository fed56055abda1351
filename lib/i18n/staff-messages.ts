import type { Locale } from "../checkout/types";
import { format } from "./format";

/*
 * The words of the staff's way in (sign-in, the second step, a password link, recent sign-in, a
 * role's refusal) in the four languages the payer's pages speak, so a refusal is read in the staff
 * member's own language (issue 53). The rest of the back office is in English. `{name}` marks a
 * value filled in at run time, with the same names in every language.
 */

const en = {
  "common.language": "Language",
  "signIn.title": "Sign in",
  "signIn.heading": "Back office",
  "signIn.intro": "Sign in with your staff email and password, or with a passkey.",
  "signIn.email": "Email",
  "signIn.password": "Password",
  "signIn.submit": "Sign in",
  "signIn.enterEmail": "Enter your email address",
  "signIn.enterPassword": "Enter your password",
  "signIn.wrong": "Wrong email or password.",
  "signIn.away": "The back office cannot reach its database just now. Nothing was changed: try again in a moment.",
  "signIn.tooMany": "Too many failed tries. Try again in {minutes} min.",
  "signIn.notAForm": "This form could not be read. Reload the page and try again.",
  "signIn.endedAll": "Signed out everywhere: every session of yours has ended.",
  "signIn.passwordSet": "Your password is set. Sign in with it.",
  "passkey.signIn": "Sign in with a passkey",
  "passkey.use": "Use a passkey",
  "passkey.confirm": "Confirm with a passkey",
  "passkey.notDone": "The passkey was not used: it was cancelled, or this device has none for this site. Try again.",
  "passkey.failed": "That passkey did not sign you in. Try again, or use your password.",
  "code.heading": "Two-step sign-in",
  "code.signingInAs": "Signing in as {email}.",
  "code.label": "Code",
  "code.hint": "The 6 digits your authenticator app shows, or one of your recovery codes.",
  "code.submit": "Verify",
  "code.enter": "Enter the code from your app.",
  "code.wrong": "That code is not right. Type the 6 digits your app shows now, or a recovery code.",
  "code.cancel": "Cancel and sign out",
  "confirm.heading": "Confirm it is you",
  "confirm.intro":
    "Signed in as {email}. Changes to API keys and staff, and large refunds, ask for your password (or a code from your app, or a passkey) when you last gave it over 5 minutes ago.",
  "confirm.label": "Password or code",
  "confirm.submit": "Confirm",
  "confirm.back": "Back without confirming",
  "confirm.enter": "Enter your password or a code.",
  "confirm.wrong": "That is not your password, nor a code of yours.",
  "setPassword.heading": "Set your password",
  "setPassword.for": "For {email}. Then sign in with it.",
  "setPassword.new": "New password",
  "setPassword.hint": "At least {min} characters; a few words nobody would guess are easiest.",
  "setPassword.again": "New password again",
  "setPassword.submit": "Set password",
  "setPassword.mismatch": "The two passwords are not the same.",
  "setPassword.tooShort": "Use at least {min} characters.",
  "setPassword.tooLong": "Use at most {max} characters.",
  "setPassword.tooEasy": "This password is too easy to guess. Choose one nobody would guess.",
  "setPassword.failed": "The password could not be set because of an unexpected error. Try again.",
  "link.unknown": "This link is not valid. Ask an admin for a new one.",
  "link.used": "This link has been used already. Ask an admin for a new one.",
  "link.expired": "This link has expired (after 24 hours). Ask an admin for a new one.",
  "forbidden.title": "Not allowed",
  "forbidden.heading": "Your role may not do this",
  "forbidden.body": "Ask an admin of your back office if you need it.",
  "forbidden.back": "Back to the checkouts",
};

export type StaffMessageId = keyof typeof en;
export type StaffMessages = Readonly<Record<StaffMessageId, string>>;

const lt: StaffMessages = {
  "common.language": "Kalba",
  "signIn.title": "Prisijungimas",
  "signIn.heading": "Administravimas",
  "signIn.intro": "Prisijunkite darbuotojo el. paštu ir slaptažodžiu arba prieigos raktu.",
  "signIn.email": "El. paštas",
  "signIn.password": "Slaptažodis",
  "signIn.submit": "Prisijungti",
  "signIn.enterEmail": "Įveskite el. pašto adresą",
  "signIn.enterPassword": "Įveskite slaptažodį",
  "signIn.wrong": "Neteisingas el. paštas arba slaptažodis.",
  "signIn.away":
    "Administravimo sistema šiuo metu nepasiekia savo duomenų bazės. Niekas nepakeista: pabandykite po akimirkos.",
  "signIn.tooMany": "Per daug nesėkmingų bandymų. Bandykite dar kartą po {minutes} min.",
  "signIn.notAForm": "Šios formos nepavyko perskaityti. Įkelkite puslapį iš naujo ir bandykite dar kartą.",
  "signIn.endedAll": "Atsijungta visur: visos jūsų sesijos baigtos.",
  "signIn.passwordSet": "Slaptažodis nustatytas. Prisijunkite su juo.",
  "passkey.signIn": "Prisijungti prieigos raktu",
  "passkey.use": "Naudoti prieigos raktą",
  "passkey.confirm": "Patvirtinti prieigos raktu",
  "passkey.notDone":
    "Prieigos raktas nepanaudotas: veiksmas atšauktas arba šiame įrenginyje nėra rakto šiai svetainei. Bandykite dar kartą.",
  "passkey.failed": "Su šiuo prieigos raktu prisijungti nepavyko. Bandykite dar kartą arba naudokite slaptažodį.",
  "code.heading": "Dviejų žingsnių prisijungimas",
  "code.signingInAs": "Jungiatės kaip {email}.",
  "code.label": "Kodas",
  "code.hint": "6 skaitmenys, kuriuos rodo autentifikavimo programėlė, arba vienas iš atsarginių kodų.",
  "code.submit": "Patvirtinti",
  "code.enter": "Įveskite kodą iš programėlės.",
  "code.wrong": "Kodas neteisingas. Įveskite 6 skaitmenis, kuriuos programėlė rodo dabar, arba atsarginį kodą.",
  "code.cancel": "Atšaukti ir atsijungti",
  "confirm.heading": "Patvirtinkite, kad tai jūs",
  "confirm.intro":
    "Prisijungta kaip {email}. Keičiant API raktus ir darbuotojus bei grąžinant dideles sumas prašoma slaptažodžio (arba programėlės kodo ar prieigos rakto), jei paskutinį kartą jį pateikėte daugiau nei prieš 5 minutes.",
  "confirm.label": "Slaptažodis arba kodas",
  "confirm.submit": "Patvirtinti",
  "confirm.back": "Grįžti nepatvirtinus",
  "confirm.enter": "Įveskite slaptažodį arba kodą.",
  "confirm.wrong": "Tai nėra nei jūsų slaptažodis, nei jūsų kodas.",
  "setPassword.heading": "Nustatykite slaptažodį",
  "setPassword.for": "Paskyrai {email}. Tada prisijunkite su juo.",
  "setPassword.new": "Naujas slaptažodis",
  "setPassword.hint": "Bent {min} simbolių; lengviausia – keli žodžiai, kurių niekas neatspėtų.",
  "setPassword.again": "Pakartokite naują slaptažodį",
  "setPassword.submit": "Nustatyti slaptažodį",
  "setPassword.mismatch": "Slaptažodžiai nesutampa.",
  "setPassword.tooShort": "Naudokite bent {min} simbolių.",
  "setPassword.tooLong": "Naudokite ne daugiau kaip {max} simbolių.",
  "setPassword.tooEasy": "Šį slaptažodį per lengva atspėti. Pasirinkite tokį, kurio niekas neatspėtų.",
  "setPassword.failed": "Slaptažodžio nepavyko nustatyti dėl netikėtos klaidos. Bandykite dar kartą.",
  "link.unknown": "Ši nuoroda negalioja. Paprašykite administratoriaus naujos.",
  "link.used": "Ši nuoroda jau panaudota. Paprašykite administratoriaus naujos.",
  "link.expired": "Šios nuorodos galiojimas baigėsi (po 24 valandų). Paprašykite administratoriaus naujos.",
  "forbidden.title": "Neleidžiama",
  "forbidden.heading": "Jūsų vaidmeniui tai neleidžiama",
  "forbidden.body": "Jei to reikia, kreipkitės į administravimo administratorių.",
  "forbidden.back": "Atgal į apmokėjimų sąrašą",
};

const lv: StaffMessages = {
  "common.language": "Valoda",
  "signIn.title": "Pieteikšanās",
  "signIn.heading": "Administrēšana",
  "signIn.intro": "Piesakieties ar darbinieka e-pastu un paroli vai ar piekļuves atslēgu.",
  "signIn.email": "E-pasts",
  "signIn.password": "Parole",
  "signIn.submit": "Pieteikties",
  "signIn.enterEmail": "Ievadiet e-pasta adresi",
  "signIn.enterPassword": "Ievadiet paroli",
  "signIn.wrong": "Nepareizs e-pasts vai parole.",
  "signIn.away":
    "Pārvaldības sistēma šobrīd nevar piekļūt savai datubāzei. Nekas netika mainīts: mēģiniet vēlreiz pēc brīža.",
  "signIn.tooMany": "Pārāk daudz neveiksmīgu mēģinājumu. Mēģiniet vēlreiz pēc {minutes} min.",
  "signIn.notAForm": "Šo veidlapu neizdevās nolasīt. Pārlādējiet lapu un mēģiniet vēlreiz.",
  "signIn.endedAll": "Izrakstīts visur: visas jūsu sesijas ir beigušās.",
  "signIn.passwordSet": "Parole ir iestatīta. Piesakieties ar to.",
  "passkey.signIn": "Pieteikties ar piekļuves atslēgu",
  "passkey.use": "Izmantot piekļuves atslēgu",
  "passkey.confirm": "Apstiprināt ar piekļuves atslēgu",
  "passkey.notDone":
    "Piekļuves atslēga netika izmantota: darbība tika atcelta, vai šajā ierīcē nav atslēgas šai vietnei. Mēģiniet vēlreiz.",
  "passkey.failed": "Ar šo piekļuves atslēgu pieteikties neizdevās. Mēģiniet vēlreiz vai izmantojiet paroli.",
  "code.heading": "Divpakāpju pieteikšanās",
  "code.signingInAs": "Piesakāties kā {email}.",
  "code.label": "Kods",
  "code.hint": "6 cipari, ko rāda autentifikācijas lietotne, vai viens no rezerves kodiem.",
  "code.submit": "Pārbaudīt",
  "code.enter": "Ievadiet kodu no lietotnes.",
  "code.wrong": "Kods nav pareizs. Ievadiet 6 ciparus, ko lietotne rāda tagad, vai rezerves kodu.",
  "code.cancel": "Atcelt un izrakstīties",
  "confirm.heading": "Apstipriniet, ka tas esat jūs",
  "confirm.intro":
    "Pieteicies kā {email}. API atslēgu un darbinieku izmaiņām un lielām atmaksām tiek prasīta parole (vai lietotnes kods, vai piekļuves atslēga), ja pēdējo reizi to ievadījāt pirms vairāk nekā 5 minūtēm.",
  "confirm.label": "Parole vai kods",
  "confirm.submit": "Apstiprināt",
  "confirm.back": "Atpakaļ bez apstiprināšanas",
  "confirm.enter": "Ievadiet paroli vai kodu.",
  "confirm.wrong": "Tā nav ne jūsu parole, ne jūsu kods.",
  "setPassword.heading": "Iestatiet paroli",
  "setPassword.for": "Kontam {email}. Pēc tam piesakieties ar to.",
  "setPassword.new": "Jaunā parole",
  "setPassword.hint": "Vismaz {min} rakstzīmes; vieglāk ir ar dažiem vārdiem, ko neviens neuzminētu.",
  "setPassword.again": "Jaunā parole vēlreiz",
  "setPassword.submit": "Iestatīt paroli",
  "setPassword.mismatch": "Abas paroles nesakrīt.",
  "setPassword.tooShort": "Izmantojiet vismaz {min} rakstzīmes.",
  "setPassword.tooLong": "Izmantojiet ne vairāk kā {max} rakstzīmes.",
  "setPassword.tooEasy": "Šo paroli ir pārāk viegli uzminēt. Izvēlieties tādu, ko neviens neuzminētu.",
  "setPassword.failed": "Paroli neizdevās iestatīt negaidītas kļūdas dēļ. Mēģiniet vēlreiz.",
  "link.unknown": "Šī saite nav derīga. Palūdziet administratoram jaunu.",
  "link.used": "Šī saite jau ir izmantota. Palūdziet administratoram jaunu.",
  "link.expired": "Šīs saites derīgums ir beidzies (pēc 24 stundām). Palūdziet administratoram jaunu.",
  "forbidden.title": "Nav atļauts",
  "forbidden.heading": "Jūsu lomai tas nav atļauts",
  "forbidden.body": "Ja tas ir vajadzīgs, vērsieties pie administrēšanas administratora.",
  "forbidden.back": "Atpakaļ uz maksājumu sarakstu",
};

const et: StaffMessages = {
  "common.language": "Keel",
  "signIn.title": "Sisselogimine",
  "signIn.heading": "Haldus",
  "signIn.intro": "Logi sisse töötaja e-posti ja parooliga või pääsuvõtmega.",
  "signIn.email": "E-post",
  "signIn.password": "Parool",
  "signIn.submit": "Logi sisse",
  "signIn.enterEmail": "Sisesta e-posti aadress",
  "signIn.enterPassword": "Sisesta parool",
  "signIn.wrong": "Vale e-post või parool.",
  "signIn.away": "Haldussüsteem ei jõua praegu oma andmebaasini. Midagi ei muudetud: proovige hetke pärast uuesti.",
  "signIn.tooMany": "Liiga palju ebaõnnestunud katseid. Proovi uuesti {minutes} min pärast.",
  "signIn.notAForm": "Seda vormi ei õnnestunud lugeda. Laadi leht uuesti ja proovi uuesti.",
  "signIn.endedAll": "Kõikjal välja logitud: kõik sinu seansid on lõppenud.",
  "signIn.passwordSet": "Parool on määratud. Logi sellega sisse.",
  "passkey.signIn": "Logi sisse pääsuvõtmega",
  "passkey.use": "Kasuta pääsuvõtit",
  "passkey.confirm": "Kinnita pääsuvõtmega",
  "passkey.notDone":
    "Pääsuvõtit ei kasutatud: see tühistati või selles seadmes pole selle saidi jaoks võtit. Proovi uuesti.",
  "passkey.failed": "Selle pääsuvõtmega sisselogimine ei õnnestunud. Proovi uuesti või kasuta parooli.",
  "code.heading": "Kaheastmeline sisselogimine",
  "code.signingInAs": "Logid sisse kui {email}.",
  "code.label": "Kood",
  "code.hint": "Autentimisrakenduse näidatud 6 numbrit või üks varukoodidest.",
  "code.submit": "Kontrolli",
  "code.enter": "Sisesta rakenduse kood.",
  "code.wrong": "See kood pole õige. Sisesta 6 numbrit, mida rakendus praegu näitab, või varukood.",
  "code.cancel": "Tühista ja logi välja",
  "confirm.heading": "Kinnita, et see oled sina",
  "confirm.intro":
    "Sisse logitud kui {email}. API-võtmete ja töötajate muutmiseks ning suurteks tagasimakseteks küsitakse parooli (või rakenduse koodi või pääsuvõtit), kui andsid selle viimati üle 5 minuti tagasi.",
  "confirm.label": "Parool või kood",
  "confirm.submit": "Kinnita",
  "confirm.back": "Tagasi kinnitamata",
  "confirm.enter": "Sisesta parool või kood.",
  "confirm.wrong": "See pole sinu parool ega sinu kood.",
  "setPassword.heading": "Määra parool",
  "setPassword.for": "Kontole {email}. Seejärel logi sellega sisse.",
  "setPassword.new": "Uus parool",
  "setPassword.hint": "Vähemalt {min} märki; kõige lihtsam on mõni sõna, mida keegi ära ei arvaks.",
  "setPassword.again": "Uus parool uuesti",
  "setPassword.submit": "Määra parool",
  "setPassword.mismatch": "Paroolid ei ühti.",
  "setPassword.tooShort": "Kasuta vähemalt {min} märki.",
  "setPassword.tooLong": "Kasuta kõige rohkem {max} märki.",
  "setPassword.tooEasy": "Seda parooli on liiga lihtne ära arvata. Vali selline, mida keegi ära ei arvaks.",
  "setPassword.failed": "Parooli ei õnnestunud ootamatu vea tõttu määrata. Proovi uuesti.",
  "link.unknown": "See link ei kehti. Küsi administraatorilt uus.",
  "link.used": "Seda linki on juba kasutatud. Küsi administraatorilt uus.",
  "link.expired": "Selle lingi kehtivus on lõppenud (24 tunni järel). Küsi administraatorilt uus.",
  "forbidden.title": "Pole lubatud",
  "forbidden.heading": "Sinu roll ei luba seda teha",
  "forbidden.body": "Kui seda on vaja, pöördu halduse administraatori poole.",
  "forbidden.back": "Tagasi maksete juurde",
};

const CATALOGUE: Readonly<Record<Locale, StaffMessages>> = { en, lt, lv, et };

export function staffMessages(locale: Locale): StaffMessages {
  return CATALOGUE[locale];
}

/** A message with its `{name}`s filled in. */
export function staffText(
  t: StaffMessages,
  id: StaffMessageId,
  values: Readonly<Record<string, string | number>> = {},
): string {
  return format(t[id], values);
}

/**
 * A set-password link's refusal (lib/staff StaffError codes) in the staff member's language:
 * the link unknown, used or expired, or the password breaking `rule`. Undefined for other codes.
 */
export function linkRefusalText(
  t: StaffMessages,
  code: string,
  rule?: "too_short" | "too_long" | "too_easy",
  limits: { min: number; max: number } = { min: 0, max: 0 },
): string | undefined {
  if (code === "link_unknown") return t["link.unknown"];
  if (code === "link_used") return t["link.used"];
  if (code === "link_expired") return t["link.expired"];
  if (code === "weak_password" && rule === "too_short") return format(t["setPassword.tooShort"], limits);
  if (code === "weak_password" && rule === "too_long") return format(t["setPassword.tooLong"], limits);
  if (code === "weak_password" && rule === "too_easy") return t["setPassword.tooEasy"];
  return undefined;
}

/** The messages whose id starts with one of the prefixes: what a client form receives. */
export type StaffWordsFor<P extends string> = { readonly [K in Extract<StaffMessageId, `${P}${string}`>]: string };

export function pickStaffWords<P extends string>(t: StaffMessages, prefixes: readonly P[]): StaffWordsFor<P> {
  return Object.fromEntries(
    Object.entries(t).filter(([id]) => prefixes.some((p) => id.startsWith(p))),
  ) as StaffWordsFor<P>;
}

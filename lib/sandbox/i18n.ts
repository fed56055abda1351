import type { CardBehaviour, CardFormError } from "./cards";
import type { Scope } from "./projects";

/** Every string of the hosted pages, in the four languages the sandbox speaks (ADR 6: others fall back to en). */

export const LANGS = ["en", "lt", "lv", "et"] as const;
export type Lang = (typeof LANGS)[number];

export type OutcomeKey =
  "approved" | "pending" | "cancelled" | "rejected" | "declined" | "expired" | "failed" | "linked" | "linkCancelled";
export type ErrorKey =
  "notFound" | "paymentNotFound" | "linkNotFound" | "formUnreadable" | "forbidden" | "somethingWrong";

export interface Messages {
  lang: Lang;
  siteName: string;
  linkingSiteName: string;
  bannerStrong: string;
  bannerText: string;
  stepOf: (n: number, total: number) => string;
  countries: Readonly<Record<string, string>>;
  paymentHeading: string;
  amount: string;
  payee: string;
  description: string;
  chooseMethod: string;
  payByBank: string;
  payByCard: string;
  chooseBank: string;
  country: string;
  showBanks: string;
  banksIn: (country: string) => string;
  noBanks: string;
  chooseBankError: string;
  continue: string;
  cancel: string;
  logInTo: (bank: string) => string;
  testBankTag: string;
  testUsersHint: string;
  userHints: Readonly<Record<"complete" | "pending", string>>;
  username: string;
  password: string;
  logIn: string;
  wrongLogin: string;
  chooseAnotherBank: string;
  confirmPayment: string;
  payFrom: string;
  accountKinds: Readonly<Record<"everyday" | "savings", string>>;
  linkedAccount: (bank: string, iban: string) => string;
  approve: string;
  reject: string;
  leavePending: string;
  cardHeading: string;
  cardNumber: string;
  expiry: string;
  cvc: string;
  cardName: string;
  payAmount: (amount: string) => string;
  testCardsHint: string;
  cardBehaviours: Readonly<Record<CardBehaviour, string>>;
  cardErrors: Readonly<Record<CardFormError, string>>;
  verifyHeading: string;
  otp: string;
  otpHint: (code: string) => string;
  confirm: string;
  wrongOtp: string;
  outcomes: Readonly<Record<OutcomeKey, string>>;
  finishedBody: string;
  pendingBody: string;
  linkedBody: string;
  returnTo: (name: string) => string;
  linkUsedTitle: string;
  linkUsedBody: string;
  continueHere: string;
  linkExpiredTitle: string;
  linkExpiredBody: string;
  paymentFinishedTitle: string;
  backToShop: string;
  errors: Readonly<Record<ErrorKey, string>>;
  linkCardHeading: string;
  consentHeading: string;
  consentIntro: (project: string, bank: string) => string;
  scopeNames: Readonly<Record<Scope, string>>;
  accounts: string;
  consentValidity: string;
  allow: string;
  deny: string;
}

const en: Messages = {
  lang: "en",
  siteName: "Sandbox bank payment",
  linkingSiteName: "Sandbox account linking",
  bannerStrong: "Sandbox",
  bannerText: "test banks only, no real money moves.",
  stepOf: (n, total) => `Step ${n} of ${total}`,
  countries: { LT: "Lithuania", LV: "Latvia", EE: "Estonia" },
  paymentHeading: "Payment",
  amount: "Amount",
  payee: "Payee",
  description: "Description",
  chooseMethod: "Choose how to pay",
  payByBank: "Pay by bank",
  payByCard: "Pay by card",
  chooseBank: "Choose your bank",
  country: "Country",
  showBanks: "Show banks",
  banksIn: (country) => `Banks in ${country}`,
  noBanks: "There are no test banks in this country. Choose another country.",
  chooseBankError: "Choose a bank to continue.",
  continue: "Continue",
  cancel: "Cancel",
  logInTo: (bank) => `Log in to ${bank}`,
  testBankTag: "test internet bank",
  testUsersHint: "This is a test bank. Log in as one of these test users (username / password):",
  userHints: {
    complete: "approved payments complete",
    pending: "approved payments stay pending for a while, then complete",
  },
  username: "Username",
  password: "Password",
  logIn: "Log in",
  wrongLogin: "Wrong username or password. Try again.",
  chooseAnotherBank: "Choose another bank",
  confirmPayment: "Confirm payment",
  payFrom: "Pay from",
  accountKinds: { everyday: "Everyday account", savings: "Savings account" },
  linkedAccount: (bank, iban) => `You pay from your linked ${bank} account ${iban}.`,
  approve: "Approve",
  reject: "Reject (insufficient funds)",
  leavePending: "Leave pending",
  cardHeading: "Pay by card",
  cardNumber: "Card number",
  expiry: "Expiry date (MM/YY)",
  cvc: "Security code (CVC)",
  cardName: "Name on card",
  payAmount: (amount) => `Pay ${amount}`,
  testCardsHint: "This is a test card form. Use one of these test cards, any future expiry date and any 3-digit code:",
  cardBehaviours: {
    success: "payment succeeds",
    decline: "payment is declined",
    verify: "asks for a one-time code, then succeeds",
  },
  cardErrors: {
    number: "Enter a valid card number.",
    unknown: "Use one of the test cards listed above.",
    expiry: "Enter the expiry date as MM/YY, not in the past.",
    cvc: "Enter the 3-digit security code.",
    name: "Enter the name on the card.",
  },
  verifyHeading: "Confirm with your card issuer",
  otp: "One-time code",
  otpHint: (code) => `This is a test card. The code is ${code}.`,
  confirm: "Confirm",
  wrongOtp: "Wrong code. Try again.",
  outcomes: {
    approved: "Payment approved",
    pending: "Payment pending",
    cancelled: "Payment cancelled",
    rejected: "Payment rejected",
    declined: "Card declined",
    expired: "Payment expired",
    failed: "Payment failed",
    linked: "Account linked",
    linkCancelled: "Account linking cancelled",
  },
  finishedBody: "This payment is finished and cannot be changed.",
  pendingBody: "Your bank is processing this payment. The shop will be told when it completes.",
  linkedBody: "You can close this page.",
  returnTo: (name) => `Return to ${name}`,
  linkUsedTitle: "This link was already used",
  linkUsedBody: "For your security, a payment link works only once. Go back to the shop and start again.",
  continueHere: "Continue where you left off",
  linkExpiredTitle: "This link has expired",
  linkExpiredBody: "Go back to the shop and start again.",
  paymentFinishedTitle: "This payment is already finished",
  backToShop: "Go back to the shop.",
  errors: {
    notFound: "Page not found",
    paymentNotFound: "Payment not found",
    linkNotFound: "Link not found",
    formUnreadable: "The form could not be read",
    forbidden: "This request is not allowed",
    somethingWrong: "Something went wrong",
  },
  linkCardHeading: "Link your card",
  consentHeading: "Allow access to your account",
  consentIntro: (project, bank) => `${project} asks for access to your ${bank} accounts:`,
  scopeNames: {
    payments: "Start payments from your account",
    payments_pos: "Start payments at points of sale",
    accounts_basic: "See your list of accounts",
    accounts_details: "See your account details",
    accounts_balances: "See your balances",
    accounts_transactions: "See your transactions",
  },
  accounts: "Accounts",
  consentValidity: "Access is valid for 90 days.",
  allow: "Allow",
  deny: "Deny",
};

const lt: Messages = {
  lang: "lt",
  siteName: "Bandomasis banko mokėjimas",
  linkingSiteName: "Bandomasis sąskaitos susiejimas",
  bannerStrong: "Bandomoji aplinka",
  bannerText: "tik bandomieji bankai, tikri pinigai nejuda.",
  stepOf: (n, total) => `${n} žingsnis iš ${total}`,
  countries: { LT: "Lietuva", LV: "Latvija", EE: "Estija" },
  paymentHeading: "Mokėjimas",
  amount: "Suma",
  payee: "Gavėjas",
  description: "Paskirtis",
  chooseMethod: "Pasirinkite mokėjimo būdą",
  payByBank: "Mokėti per banką",
  payByCard: "Mokėti kortele",
  chooseBank: "Pasirinkite banką",
  country: "Šalis",
  showBanks: "Rodyti bankus",
  banksIn: (country) => `Bankai: ${country}`,
  noBanks: "Šioje šalyje bandomųjų bankų nėra. Pasirinkite kitą šalį.",
  chooseBankError: "Norėdami tęsti, pasirinkite banką.",
  continue: "Tęsti",
  cancel: "Atšaukti",
  logInTo: (bank) => `Prisijungimas: ${bank}`,
  testBankTag: "bandomoji internetinė bankininkystė",
  testUsersHint:
    "Tai bandomasis bankas. Prisijunkite kaip vienas iš šių bandomųjų naudotojų (naudotojo vardas / slaptažodis):",
  userHints: {
    complete: "patvirtinti mokėjimai įvykdomi",
    pending: "patvirtinti mokėjimai kurį laiką laukia, tada įvykdomi",
  },
  username: "Naudotojo vardas",
  password: "Slaptažodis",
  logIn: "Prisijungti",
  wrongLogin: "Neteisingas naudotojo vardas arba slaptažodis. Bandykite dar kartą.",
  chooseAnotherBank: "Pasirinkti kitą banką",
  confirmPayment: "Patvirtinkite mokėjimą",
  payFrom: "Mokėti iš sąskaitos",
  accountKinds: { everyday: "Kasdienė sąskaita", savings: "Taupomoji sąskaita" },
  linkedAccount: (bank, iban) => `Mokate iš susietos ${bank} sąskaitos ${iban}.`,
  approve: "Patvirtinti",
  reject: "Atmesti (nepakanka lėšų)",
  leavePending: "Palikti laukti",
  cardHeading: "Mokėti kortele",
  cardNumber: "Kortelės numeris",
  expiry: "Galioja iki (MM/MM)",
  cvc: "Saugos kodas (CVC)",
  cardName: "Vardas ir pavardė ant kortelės",
  payAmount: (amount) => `Mokėti ${amount}`,
  testCardsHint:
    "Tai bandomoji kortelės forma. Naudokite vieną iš šių bandomųjų kortelių, bet kokią būsimą galiojimo datą ir bet kokį 3 skaitmenų kodą:",
  cardBehaviours: {
    success: "mokėjimas pavyksta",
    decline: "mokėjimas atmetamas",
    verify: "paprašo vienkartinio kodo, tada pavyksta",
  },
  cardErrors: {
    number: "Įveskite teisingą kortelės numerį.",
    unknown: "Naudokite vieną iš aukščiau nurodytų bandomųjų kortelių.",
    expiry: "Įveskite galiojimo datą formatu MM/MM; ji negali būti praėjusi.",
    cvc: "Įveskite 3 skaitmenų saugos kodą.",
    name: "Įveskite vardą ir pavardę, nurodytus ant kortelės.",
  },
  verifyHeading: "Patvirtinkite kortelės išdavėjui",
  otp: "Vienkartinis kodas",
  otpHint: (code) => `Tai bandomoji kortelė. Kodas: ${code}.`,
  confirm: "Patvirtinti",
  wrongOtp: "Neteisingas kodas. Bandykite dar kartą.",
  outcomes: {
    approved: "Mokėjimas patvirtintas",
    pending: "Mokėjimas laukia",
    cancelled: "Mokėjimas atšauktas",
    rejected: "Mokėjimas atmestas",
    declined: "Kortelė atmesta",
    expired: "Mokėjimo laikas baigėsi",
    failed: "Mokėjimas nepavyko",
    linked: "Sąskaita susieta",
    linkCancelled: "Sąskaitos susiejimas atšauktas",
  },
  finishedBody: "Šis mokėjimas baigtas ir jo pakeisti negalima.",
  pendingBody: "Jūsų bankas apdoroja šį mokėjimą. Parduotuvė bus informuota, kai jis bus įvykdytas.",
  linkedBody: "Šį puslapį galite uždaryti.",
  returnTo: (name) => `Grįžti: ${name}`,
  linkUsedTitle: "Ši nuoroda jau panaudota",
  linkUsedBody:
    "Saugumo sumetimais mokėjimo nuoroda veikia tik vieną kartą. Grįžkite į parduotuvę ir pradėkite iš naujo.",
  continueHere: "Tęsti nuo ten, kur baigėte",
  linkExpiredTitle: "Šios nuorodos galiojimas baigėsi",
  linkExpiredBody: "Grįžkite į parduotuvę ir pradėkite iš naujo.",
  paymentFinishedTitle: "Šis mokėjimas jau baigtas",
  backToShop: "Grįžkite į parduotuvę.",
  errors: {
    notFound: "Puslapis nerastas",
    paymentNotFound: "Mokėjimas nerastas",
    linkNotFound: "Nuoroda nerasta",
    formUnreadable: "Formos nepavyko nuskaityti",
    forbidden: "Ši užklausa neleidžiama",
    somethingWrong: "Įvyko klaida",
  },
  linkCardHeading: "Susiekite kortelę",
  consentHeading: "Leiskite prieigą prie sąskaitos",
  consentIntro: (project, bank) => `${project} prašo prieigos prie jūsų ${bank} sąskaitų:`,
  scopeNames: {
    payments: "Inicijuoti mokėjimus iš jūsų sąskaitos",
    payments_pos: "Inicijuoti mokėjimus prekybos vietose",
    accounts_basic: "Matyti jūsų sąskaitų sąrašą",
    accounts_details: "Matyti jūsų sąskaitų duomenis",
    accounts_balances: "Matyti jūsų likučius",
    accounts_transactions: "Matyti jūsų operacijas",
  },
  accounts: "Sąskaitos",
  consentValidity: "Prieiga galioja 90 dienų.",
  allow: "Leisti",
  deny: "Neleisti",
};

const lv: Messages = {
  lang: "lv",
  siteName: "Testa bankas maksājums",
  linkingSiteName: "Testa konta piesaiste",
  bannerStrong: "Testa vide",
  bannerText: "tikai testa bankas, īsta nauda netiek pārskaitīta.",
  stepOf: (n, total) => `${n}. solis no ${total}`,
  countries: { LT: "Lietuva", LV: "Latvija", EE: "Igaunija" },
  paymentHeading: "Maksājums",
  amount: "Summa",
  payee: "Saņēmējs",
  description: "Apraksts",
  chooseMethod: "Izvēlieties maksājuma veidu",
  payByBank: "Maksāt ar banku",
  payByCard: "Maksāt ar karti",
  chooseBank: "Izvēlieties banku",
  country: "Valsts",
  showBanks: "Rādīt bankas",
  banksIn: (country) => `Bankas: ${country}`,
  noBanks: "Šajā valstī nav testa banku. Izvēlieties citu valsti.",
  chooseBankError: "Lai turpinātu, izvēlieties banku.",
  continue: "Turpināt",
  cancel: "Atcelt",
  logInTo: (bank) => `Pieslēgšanās: ${bank}`,
  testBankTag: "testa internetbanka",
  testUsersHint: "Šī ir testa banka. Pieslēdzieties kā viens no šiem testa lietotājiem (lietotājvārds / parole):",
  userHints: {
    complete: "apstiprinātie maksājumi tiek izpildīti",
    pending: "apstiprinātie maksājumi kādu laiku gaida, tad tiek izpildīti",
  },
  username: "Lietotājvārds",
  password: "Parole",
  logIn: "Pieslēgties",
  wrongLogin: "Nepareizs lietotājvārds vai parole. Mēģiniet vēlreiz.",
  chooseAnotherBank: "Izvēlēties citu banku",
  confirmPayment: "Apstipriniet maksājumu",
  payFrom: "Maksāt no konta",
  accountKinds: { everyday: "Ikdienas konts", savings: "Krājkonts" },
  linkedAccount: (bank, iban) => `Jūs maksājat no piesaistītā ${bank} konta ${iban}.`,
  approve: "Apstiprināt",
  reject: "Noraidīt (nepietiek līdzekļu)",
  leavePending: "Atstāt gaidīšanā",
  cardHeading: "Maksāt ar karti",
  cardNumber: "Kartes numurs",
  expiry: "Derīguma termiņš (MM/GG)",
  cvc: "Drošības kods (CVC)",
  cardName: "Vārds uz kartes",
  payAmount: (amount) => `Maksāt ${amount}`,
  testCardsHint:
    "Šī ir testa kartes veidlapa. Izmantojiet kādu no šīm testa kartēm, jebkuru nākotnes derīguma termiņu un jebkuru 3 ciparu kodu:",
  cardBehaviours: {
    success: "maksājums izdodas",
    decline: "maksājums tiek noraidīts",
    verify: "prasa vienreizējo kodu, tad izdodas",
  },
  cardErrors: {
    number: "Ievadiet derīgu kartes numuru.",
    unknown: "Izmantojiet kādu no augstāk norādītajām testa kartēm.",
    expiry: "Ievadiet derīguma termiņu formātā MM/GG; tas nedrīkst būt pagātnē.",
    cvc: "Ievadiet 3 ciparu drošības kodu.",
    name: "Ievadiet vārdu, kas norādīts uz kartes.",
  },
  verifyHeading: "Apstipriniet kartes izdevējam",
  otp: "Vienreizējais kods",
  otpHint: (code) => `Šī ir testa karte. Kods ir ${code}.`,
  confirm: "Apstiprināt",
  wrongOtp: "Nepareizs kods. Mēģiniet vēlreiz.",
  outcomes: {
    approved: "Maksājums apstiprināts",
    pending: "Maksājums gaida apstrādi",
    cancelled: "Maksājums atcelts",
    rejected: "Maksājums noraidīts",
    declined: "Karte noraidīta",
    expired: "Maksājuma termiņš beidzies",
    failed: "Maksājums neizdevās",
    linked: "Konts piesaistīts",
    linkCancelled: "Konta piesaiste atcelta",
  },
  finishedBody: "Šis maksājums ir pabeigts, un to nevar mainīt.",
  pendingBody: "Jūsu banka apstrādā šo maksājumu. Veikals tiks informēts, kad tas būs pabeigts.",
  linkedBody: "Varat aizvērt šo lapu.",
  returnTo: (name) => `Atgriezties: ${name}`,
  linkUsedTitle: "Šī saite jau ir izmantota",
  linkUsedBody:
    "Drošības nolūkos maksājuma saite darbojas tikai vienu reizi. Atgriezieties veikalā un sāciet no jauna.",
  continueHere: "Turpināt no vietas, kur pārtraucāt",
  linkExpiredTitle: "Šīs saites derīguma termiņš ir beidzies",
  linkExpiredBody: "Atgriezieties veikalā un sāciet no jauna.",
  paymentFinishedTitle: "Šis maksājums jau ir pabeigts",
  backToShop: "Atgriezieties veikalā.",
  errors: {
    notFound: "Lapa nav atrasta",
    paymentNotFound: "Maksājums nav atrasts",
    linkNotFound: "Saite nav atrasta",
    formUnreadable: "Veidlapu neizdevās nolasīt",
    forbidden: "Šis pieprasījums nav atļauts",
    somethingWrong: "Radās kļūda",
  },
  linkCardHeading: "Piesaistiet karti",
  consentHeading: "Atļaujiet piekļuvi kontam",
  consentIntro: (project, bank) => `${project} lūdz piekļuvi jūsu ${bank} kontiem:`,
  scopeNames: {
    payments: "Sākt maksājumus no jūsu konta",
    payments_pos: "Sākt maksājumus tirdzniecības vietās",
    accounts_basic: "Redzēt jūsu kontu sarakstu",
    accounts_details: "Redzēt jūsu konta datus",
    accounts_balances: "Redzēt jūsu atlikumus",
    accounts_transactions: "Redzēt jūsu darījumus",
  },
  accounts: "Konti",
  consentValidity: "Piekļuve ir derīga 90 dienas.",
  allow: "Atļaut",
  deny: "Neatļaut",
};

const et: Messages = {
  lang: "et",
  siteName: "Testpanga makse",
  linkingSiteName: "Testkonto sidumine",
  bannerStrong: "Testkeskkond",
  bannerText: "ainult testpangad, päris raha ei liigu.",
  stepOf: (n, total) => `Samm ${n}/${total}`,
  countries: { LT: "Leedu", LV: "Läti", EE: "Eesti" },
  paymentHeading: "Makse",
  amount: "Summa",
  payee: "Saaja",
  description: "Selgitus",
  chooseMethod: "Valige makseviis",
  payByBank: "Maksa pangaga",
  payByCard: "Maksa kaardiga",
  chooseBank: "Valige oma pank",
  country: "Riik",
  showBanks: "Näita panku",
  banksIn: (country) => `Pangad: ${country}`,
  noBanks: "Selles riigis pole testpanku. Valige teine riik.",
  chooseBankError: "Jätkamiseks valige pank.",
  continue: "Jätka",
  cancel: "Tühista",
  logInTo: (bank) => `Sisselogimine: ${bank}`,
  testBankTag: "test-internetipank",
  testUsersHint: "See on testpank. Logige sisse ühe järgmise testkasutajana (kasutajanimi / parool):",
  userHints: {
    complete: "kinnitatud maksed tehakse ära",
    pending: "kinnitatud maksed on mõnda aega ootel, siis tehakse ära",
  },
  username: "Kasutajanimi",
  password: "Parool",
  logIn: "Logi sisse",
  wrongLogin: "Vale kasutajanimi või parool. Proovige uuesti.",
  chooseAnotherBank: "Vali teine pank",
  confirmPayment: "Kinnitage makse",
  payFrom: "Maksa kontolt",
  accountKinds: { everyday: "Arvelduskonto", savings: "Hoiukonto" },
  linkedAccount: (bank, iban) => `Maksate seotud ${bank} kontolt ${iban}.`,
  approve: "Kinnita",
  reject: "Keeldu (ebapiisav saldo)",
  leavePending: "Jäta ootele",
  cardHeading: "Maksa kaardiga",
  cardNumber: "Kaardi number",
  expiry: "Kehtivusaeg (KK/AA)",
  cvc: "Turvakood (CVC)",
  cardName: "Nimi kaardil",
  payAmount: (amount) => `Maksa ${amount}`,
  testCardsHint:
    "See on testkaardi vorm. Kasutage ühte neist testkaartidest, mis tahes tulevast kehtivusaega ja mis tahes 3-kohalist koodi:",
  cardBehaviours: {
    success: "makse õnnestub",
    decline: "makse lükatakse tagasi",
    verify: "küsib ühekordset koodi, siis õnnestub",
  },
  cardErrors: {
    number: "Sisestage kehtiv kaardi number.",
    unknown: "Kasutage ühte ülaltoodud testkaartidest.",
    expiry: "Sisestage kehtivusaeg kujul KK/AA; see ei tohi olla minevikus.",
    cvc: "Sisestage 3-kohaline turvakood.",
    name: "Sisestage kaardil olev nimi.",
  },
  verifyHeading: "Kinnitage kaardi väljastajale",
  otp: "Ühekordne kood",
  otpHint: (code) => `See on testkaart. Kood on ${code}.`,
  confirm: "Kinnita",
  wrongOtp: "Vale kood. Proovige uuesti.",
  outcomes: {
    approved: "Makse kinnitatud",
    pending: "Makse on ootel",
    cancelled: "Makse tühistatud",
    rejected: "Makse lükati tagasi",
    declined: "Kaart lükati tagasi",
    expired: "Makse aegus",
    failed: "Makse ebaõnnestus",
    linked: "Konto seotud",
    linkCancelled: "Konto sidumine tühistatud",
  },
  finishedBody: "See makse on lõpetatud ja seda ei saa muuta.",
  pendingBody: "Teie pank töötleb seda makset. Pood saab teate, kui makse on tehtud.",
  linkedBody: "Võite selle lehe sulgeda.",
  returnTo: (name) => `Tagasi: ${name}`,
  linkUsedTitle: "Seda linki on juba kasutatud",
  linkUsedBody: "Turvalisuse huvides töötab makselink ainult ühe korra. Minge tagasi poodi ja alustage uuesti.",
  continueHere: "Jätka sealt, kus pooleli jäi",
  linkExpiredTitle: "See link on aegunud",
  linkExpiredBody: "Minge tagasi poodi ja alustage uuesti.",
  paymentFinishedTitle: "See makse on juba lõpetatud",
  backToShop: "Minge tagasi poodi.",
  errors: {
    notFound: "Lehte ei leitud",
    paymentNotFound: "Makset ei leitud",
    linkNotFound: "Linki ei leitud",
    formUnreadable: "Vormi ei õnnestunud lugeda",
    forbidden: "See päring ei ole lubatud",
    somethingWrong: "Midagi läks valesti",
  },
  linkCardHeading: "Siduge oma kaart",
  consentHeading: "Lubage juurdepääs kontole",
  consentIntro: (project, bank) => `${project} soovib juurdepääsu teie ${bank} kontodele:`,
  scopeNames: {
    payments: "Algatada makseid teie kontolt",
    payments_pos: "Algatada makseid müügikohtades",
    accounts_basic: "Näha teie kontode loetelu",
    accounts_details: "Näha teie konto andmeid",
    accounts_balances: "Näha teie saldosid",
    accounts_transactions: "Näha teie tehinguid",
  },
  accounts: "Kontod",
  consentValidity: "Juurdepääs kehtib 90 päeva.",
  allow: "Luba",
  deny: "Keela",
};

export const MESSAGES: Readonly<Record<Lang, Messages>> = { en, lt, lv, et };

/** The supported language for a `lang` value; anything else is English. */
export function pickLang(value: string | null | undefined): Lang {
  const lang = value?.toLowerCase();
  return (LANGS as readonly string[]).includes(lang ?? "") ? (lang as Lang) : "en";
}

export function messages(value: string | null | undefined): Messages {
  return MESSAGES[pickLang(value)];
}

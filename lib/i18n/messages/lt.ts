import type { Messages } from "./en";

/** Lithuanian. */
export const lt: Messages = {
  "common.language": "Kalba",
  "common.accessibility": "Prieinamumo pareiškimas",
  "common.testBanner": "Bandomasis mokėjimų projektas: tikri pinigai nepervedami.",
  "common.testBannerLabel": "Bandomasis režimas",
  "common.returnToShop": "Grįžti į parduotuvę",
  "common.tryAgain": "Bandyti dar kartą",
  "common.newTab": "atsidaro naujame skirtuke",
  "meta.siteName": "Mokėjimas per banką",
  "meta.description":
    "Mokėkite per banką: pasirinkite savo banką, patvirtinkite mokėjimą jame ir grįžkite į parduotuvę.",

  "checkout.title": "Apmokėjimas",
  "checkout.heading": "Apmokėjimas",
  "checkout.intro": "Sumokėkite gavėjui {payee} tiesiai iš savo banko sąskaitos.",
  "checkout.payHeading": "Mokėjimas",
  "embed.heading": "Mokėti per banką",
  "checkout.paid.heading": "Šis užsakymas jau apmokėtas",
  "checkout.paid.body": "Daugiau mokėti nereikia. Jūsų bankas patvirtino mokėjimą.",
  "checkout.expired.heading": "Šio apmokėjimo laikas baigėsi",
  "checkout.cancelled.heading": "Šis apmokėjimas atšauktas",
  "checkout.ended.body":
    "Pinigai nebuvo nuskaičiuoti. Jei norite įsigyti šias prekes, grįžkite į parduotuvę ir pateikite užsakymą iš naujo.",
  "expiry.deadline": "Sumokėkite iki {time}. Vėliau šis apmokėjimas nebegalios.",
  "expiry.soon": "Sumokėti liko mažiau nei dvi minutės: šis apmokėjimas nebegalios nuo {time}.",
  "expiry.runOut":
    "Laikas sumokėti baigėsi, tačiau jūsų pradėtas mokėjimas dar gali būti įvykdytas: jo būsena nurodyta žemiau.",
  "checkout.failedNotice":
    "Paskutinis mokėjimo bandymas nepavyko, pinigai nebuvo nuskaičiuoti. Galite bandyti dar kartą.",
  "checkout.footerNote": "Mokėjimus vykdo licencijuotas mokėjimo inicijavimo paslaugos teikėjas.",

  "summary.heading": "Užsakymo suvestinė",
  "summary.payee": "Gavėjas",
  "summary.description": "Aprašymas",
  "summary.reference": "Užsakymo nr.",
  "summary.total": "Iš viso",
  "summary.items": "Pirkiniai ({count})",

  "pay.methodLegend": "Kaip norite mokėti?",
  "pay.method.here": "Banką pasirinksiu čia",
  "pay.method.hereHint": "Pasirinkite banką žemiau ir pereikite tiesiai į jį.",
  "pay.method.hosted": "Banką pasirinksiu kitame puslapyje",
  "pay.method.hostedHint": "Mokėjimo paslaugos teikėjas parodys jūsų šalies bankus.",
  "pay.method.card": "Mokėti kortele",
  "pay.method.cardHint": "Kortelės duomenis įvesite kitame puslapyje.",
  "pay.method.hybrid": "Banku ar kortele – kitame puslapyje",
  "pay.method.hybridHint": "Mokėjimo paslaugos teikėjas pasiūlys abu būdus.",
  "pay.country": "Jūsų banko šalis",
  "pay.showBanks": "Rodyti šios šalies bankus",
  "pay.terms": "Sutinku su mokėjimo paslaugos teikėjo {terms} ir {privacy}",
  "pay.termsLink": "taisyklėmis ir sąlygomis",
  "pay.privacyLink": "privatumo politika",
  "pay.nextPage.hosted": "Banką pasirinksite ir su mokėjimo paslaugos teikėjo sąlygomis sutiksite kitame puslapyje.",
  "pay.nextPage.card":
    "Kortelės duomenis įvesite ir su mokėjimo paslaugos teikėjo sąlygomis sutiksite kitame puslapyje.",
  "pay.nextPage.hybrid":
    "Banką arba kortelę pasirinksite ir su mokėjimo paslaugos teikėjo sąlygomis sutiksite kitame puslapyje.",
  "pay.consent.heading": "Jūs ketinate sumokėti",
  "pay.consent.amount": "Suma",
  "pay.consent.payee": "Gavėjas",
  "pay.consent.from": "Iš",
  "pay.consent.noBank": "Pasirinkite banką aukščiau",
  "pay.consent.nextPage": "Jūsų banko, pasirinkto kitame puslapyje",
  "pay.consent.card": "Jūsų kortele, kitame puslapyje",
  "pay.consent.hybrid": "Banku arba kortele, kitame puslapyje",
  "pay.button": "Mokėti {amount}",
  "pay.leaving.bank": "Nukreipiame į jūsų banką…",
  "pay.stuck": "Nieko nevyksta?",
  "pay.continue": "Tęsti jūsų banke",
  "pay.leaving.provider": "Nukreipiame į mokėjimo puslapį…",
  "pay.missing.both": "Norėdami mokėti, pasirinkite banką ir sutikite su taisyklėmis ir sąlygomis.",
  "pay.missing.bank": "Norėdami mokėti, pasirinkite banką.",
  "pay.missing.terms": "Norėdami mokėti, sutikite su taisyklėmis ir sąlygomis.",
  "pay.afterNote": "Mokėjimą ({amount}, gavėjas {payee}) patvirtinsite savo banke.",
  "pay.afterNote.card": "Mokėjimą ({amount}, gavėjas {payee}) patvirtinsite kitame puslapyje.",

  "errors.label": "Formos klaidos",
  "errors.title": "Prieš mokėdami:",
  "errors.bank": "Pasirinkite banką",
  "errors.terms": "Sutikite su taisyklėmis ir sąlygomis",

  "payError.label": "Mokėjimo klaida",
  "payError.network": "Nepavyko susisiekti su serveriu. Patikrinkite interneto ryšį ir bandykite dar kartą.",
  "payError.generic": "Mūsų pusėje įvyko klaida, pinigai nebuvo nuskaičiuoti. Bandykite dar kartą.",
  // One message per error code of lib/errors.ts (the English one is the problem's title).
  "apiError.invalid_request": "Kai kurie užklausos duomenys neteisingi.",
  "apiError.invalid_json": "Užklausa nėra tinkamas JSON.",
  "apiError.invalid_body": "Užklausos nepavyko perskaityti.",
  "apiError.unauthorized": "Neprisijungėte arba API raktas neteisingas.",
  "apiError.checkout_not_found": "Šio apmokėjimo nebėra. Grįžkite į parduotuvę ir pradėkite iš naujo.",
  "apiError.method_not_allowed": "Šis adresas nepriima tokio metodo.",
  "apiError.not_found": "Tokio adreso API nėra.",
  "apiError.unsupported_media_type": "Užklausos turinys turi būti JSON (Content-Type: application/json).",
  "apiError.cross_site_action": "Ši forma išsiųsta iš kitos svetainės.",
  "apiError.role_forbidden": "Jūsų vaidmuo to neleidžia. Kreipkitės į administratorių.",
  "apiError.insufficient_scope": "Šis API raktas neturi teisės to daryti.",
  "apiError.length_required": "Užklausoje nenurodytas jos ilgis.",
  "apiError.body_too_large": "Užklausa per didelė.",
  "apiError.idempotency_key_reused": "Šis Idempotency-Key jau panaudotas kitai užklausai.",
  "apiError.rate_limited": "Per trumpą laiką bandyta per daug kartų. Palaukite minutę ir bandykite dar kartą.",
  "apiError.terms_required": "Sutikite su taisyklėmis ir sąlygomis.",
  "apiError.unknown_bank": "Pasirinkite vieną iš sąraše esančių bankų.",
  "apiError.method_unavailable": "Šis mokėjimo būdas šiuo metu negalimas. Pasirinkite kitą.",
  "apiError.saving_unavailable":
    "Banko sąskaitos čia šiuo metu išsaugoti negalima. Vis tiek galite mokėti jos neišsaugoję.",
  "apiError.already_paid": "Šis užsakymas jau apmokėtas.",
  "apiError.checkout_cancelled": "Parduotuvė atšaukė šį apmokėjimą.",
  "apiError.checkout_expired": "Šio apmokėjimo laikas baigėsi. Grįžkite į parduotuvę ir pradėkite iš naujo.",
  "apiError.payment_in_progress": "Šio užsakymo mokėjimas jau vykdomas.",
  "apiError.payment_authorised":
    "Jūsų bankas jau gavo šį mokėjimą, todėl jo pakeisti negalima. Geriau patikrinkite jo būseną.",
  "apiError.attempt_failed": "Šis mokėjimo bandymas nepavyko, pinigai nebuvo nuskaičiuoti. Bandykite dar kartą.",
  "apiError.saved_account_ended": "Jūsų išsaugotos banko sąskaitos nebegalima naudoti. Pasirinkite savo banką.",
  "apiError.no_saved_account": "Nėra išsaugotos banko sąskaitos, iš kurios būtų galima mokėti. Pasirinkite savo banką.",
  "apiError.not_paid": "Grąžinti galima tik apmokėto apmokėjimo pinigus.",
  "apiError.refund_currency": "Šia valiuta pinigų grąžinti negalima.",
  "apiError.refund_not_allowed": "Šios parduotuvės tokio mokėjimo pinigų grąžinimas neįjungtas.",
  "apiError.refund_too_late": "Šis mokėjimas per senas, kad būtų galima grąžinti pinigus.",
  "apiError.refund_exceeds_payment": "Grąžinama suma didesnė nei dar galima grąžinti.",
  "apiError.refund_refused": "Mokėjimų paslauga atmetė šį grąžinimą. Pinigai negrąžinti.",
  "apiError.provider_error":
    "Šiuo metu nepavyko susisiekti su mokėjimo paslaugos teikėju. Pinigai nebuvo nuskaičiuoti. Bandykite dar kartą.",
  "apiError.payment_refused":
    "Mokėjimų paslauga atsisakė pradėti šį mokėjimą. Pinigai nebuvo nuskaičiuoti. Sumokėkite kitu būdu arba susisiekite su parduotuve.",
  "apiError.banks_unavailable": "Nepavyko įkelti bankų sąrašo. Bandykite dar kartą.",
  "apiError.webhook_malformed": "Webhook pranešimo nepavyko perskaityti.",
  "apiError.webhook_unsigned": "Webhook pranešimas nepasirašytas šios parduotuvės slaptu raktu.",
  "apiError.webhook_unknown_payment": "Webhook pranešimas apie mokėjimą, kurio ši parduotuvė nežino.",
  "apiError.internal_error": "Mūsų pusėje įvyko klaida. Bandykite dar kartą.",
  "payError.badLink": "Nepavyko atidaryti mokėjimo puslapio. Bandykite dar kartą.",

  "picker.label": "Jūsų bankas",
  "picker.search": "Ieškoti banko",
  "picker.searchHint": "Pavadinimas ar trumpinys, pvz., „swed“.",
  "picker.loading": "Įkeliami bankai…",
  "picker.loadError": "Nepavyko įkelti bankų sąrašo.",
  "picker.count": "Rasta bankų: {count}",
  "picker.noMatch": "Pagal „{query}“ nerastas nė vienas bankas.",
  "picker.noMatchHint": "Patikrinkite rašybą arba leiskite mokėjimo paslaugos teikėjui parodyti bankus.",
  "picker.noBanks": "Šalyje {country} nėra bankų, kuriuos būtų galima pasirinkti.",
  "picker.noBanksHint": "Pasirinkite kitą šalį arba leiskite mokėjimo paslaugos teikėjui parodyti bankus.",
  "picker.useHosted": "Banką pasirinksiu kitame puslapyje",
  "picker.lastUsed": "Naudotas paskutinį kartą",
  "picker.showAll": "Rodyti visus bankus ({count})",

  "attempt.heading": "Jūsų mokėjimas vykdomas",
  "attempt.body":
    "Pradėjote mokėti {amount} iš banko {bank}. Jei mokėjimą patvirtinote banke, patikrinkite jo būseną, o ne mokėkite dar kartą.",
  "attempt.bodyNoBank":
    "Pradėjote mokėti {amount}. Jei mokėjimą patvirtinote mokėjimo paslaugos teikėjo puslapyje, patikrinkite jo būseną, o ne mokėkite dar kartą.",
  "attempt.state.waiting": "Būsena: laukiama, kol patvirtinsite mokėjimą savo banke.",
  "attempt.state.pending": "Būsena: jūsų bankas apdoroja mokėjimą.",
  "attempt.state.paid": "Būsena: jūsų bankas patvirtino mokėjimą.",
  "attempt.state.failed": "Būsena: mokėjimas nepavyko. Pinigai nebuvo nuskaičiuoti.",
  "attempt.check": "Patvirtinau – tikrinti būseną",
  "attempt.another": "Pasirinkti kitą banką",
  "attempt.anotherHint": "Nebaigtas mokėjimas bus sustabdytas, ir galėsite mokėti iš naujo.",
  "attempt.abandoning": "Stabdomas nebaigtas mokėjimas…",
  "attempt.authorised": "Jūsų bankas jau gavo šį mokėjimą, todėl jo pakeisti negalima. Geriau patikrinkite jo būseną.",
  "attempt.abandoned": "Nebaigtas mokėjimas sustabdytas. Dabar galite pasirinkti kitą banką.",

  "saved.heading": "Jūsų išsaugota banko sąskaita",
  "saved.accountOf": "Sąskaita banke {bank}",
  "saved.covers": "Jūsų turimų lėšų pakanka šiam mokėjimui.",
  "saved.short": "Jūsų turimų lėšų gali nepakakti sumokėti {amount}. Vis tiek galite bandyti arba mokėti kitu būdu.",
  "saved.pay": "Mokėti {amount} iš šios sąskaitos",
  "saved.oneClickHint": "Nereikia jungtis prie banko ir rinktis sąskaitos: jums tereikia patvirtinti mokėjimą.",
  "saved.terms": "Mokėdami sutinkate su mokėjimo paslaugos teikėjo {terms} ir {privacy}.",
  "saved.another": "Mokėti kitu būdu",
  "saved.forget": "Pamiršti šią sąskaitą",
  "saved.forgetting": "Pamirštame sąskaitą…",
  "saved.notice.forgotten": "Jūsų išsaugotą banko sąskaitą pamiršome. Norėdami mokėti, pasirinkite banką žemiau.",
  "saved.forgetError": "Šiuo metu nepavyko pamiršti sąskaitos. Bandykite dar kartą.",
  "saved.remember": "Įsiminti šią banko sąskaitą greitesniems mokėjimams",
  "saved.rememberHint":
    "90 dienų galėsite mokėti vienu paspaudimu, nesijungdami prie savo banko. Sąskaitą bet kada galėsite pamiršti.",
  "saved.leaving": "Nukreipiame į jūsų banką sąskaitai išsaugoti…",
  "saved.expired":
    "Jūsų išsaugotos sąskaitos banke {bank} nebegalima naudoti mokėjimams vienu paspaudimu: išsaugotos sąskaitos galioja 90 dienų, o jūsų bankas gali jų galiojimą nutraukti anksčiau. Pasirinkite banką ir pažymėkite „Įsiminti šią banko sąskaitą greitesniems mokėjimams“, kad ją išsaugotumėte iš naujo.",
  "saved.notice.declined": "Jūsų banko sąskaita nebuvo išsaugota. Vis tiek galite mokėti.",
  "saved.notice.failed": "Nepavyko išsaugoti jūsų banko sąskaitos. Vis tiek galite mokėti.",
  "saved.notice.elsewhere":
    "Jūsų banko sąskaita neišsaugota: ji buvo susieta kitoje naršyklėje, nei pradėjote. Čia galite mokėti kaip įprasta.",
  "saved.notice.linked": "Jūsų banko sąskaita išsaugota. Dabar galite mokėti.",

  "qr.heading": "Mokėkite telefonu",
  "qr.alt": "Nuskenuokite ir mokėkite telefonu",
  "qr.hint":
    "Nuskenuokite šį kodą telefono kamera: šis apmokėjimas atsidarys telefone ir galėsite mokėti banko programėlėje.",
  "qr.reload": "Sumokėjote telefonu? Parodyti čia",

  "status.title": "Mokėjimo būsena",
  "status.checking.heading": "Tikriname jūsų mokėjimą…",
  "status.checking.body":
    "Laukiame, kol jūsų bankas patvirtins mokėjimą. Paprastai tai užtrunka kelias sekundes. Galite palikti šį puslapį atvertą – mokėti dar kartą nereikia.",
  "status.paid.heading": "Mokėjimas gautas",
  "status.paid.body": "Jūsų bankas patvirtino mokėjimą. Ačiū!",
  "status.failed.heading": "Mokėjimas nepavyko",
  "status.failed.body":
    "{reason} Pinigai iš jūsų sąskaitos nebuvo nuskaičiuoti. Galite bandyti dar kartą su tuo pačiu arba kitu banku.",
  "status.reason.cancelled_by_payer": "Mokėjimas atšauktas banke.",
  "status.reason.refused_by_bank": "Jūsų bankas atmetė mokėjimą.",
  "status.reason.insufficient_funds": "Sąskaitoje nepakako lėšų.",
  "status.reason.expired": "Mokėjimas nebuvo patvirtintas laiku.",
  "status.reason.provider_error": "Mokėjimo paslaugos teikėjui nepavyko atlikti mokėjimo.",
  "status.reason.unknown": "Jūsų bankas neatliko mokėjimo.",
  "status.expired.heading": "Šio apmokėjimo laikas baigėsi",
  "status.cancelled.heading": "Šis apmokėjimas atšauktas",
  "status.ended.body": "Pinigai nebuvo nuskaičiuoti. Grįžkite į parduotuvę ir pateikite užsakymą iš naujo.",
  "status.atBank.heading": "Jūsų bankas vykdo mokėjimą",
  "status.atBank.body":
    "Jūsų bankas priėmė mokėjimą ir jį užbaigia. Tai gali užtrukti nuo kelių minučių iki vienos darbo dienos. Galite uždaryti šį puslapį: parduotuvė bus informuota, kai tik bankas patvirtins mokėjimą. Prašome nemokėti dar kartą.",
  "status.slow.heading": "Vis dar tikriname jūsų mokėjimą",
  "status.slow.body":
    "Jūsų bankas dar nepatvirtino mokėjimo. Kai bankas patvirtins, parduotuvė apie tai sužinos, todėl dabar galite saugiai į ją grįžti. Nemokėkite dar kartą.",
  "status.unreachable.heading": "Nepavyko patikrinti jūsų mokėjimo",
  "status.unreachable.body": "Nepavyko susisiekti su serveriu. Jei mokėjimą patvirtinote banke, nemokėkite dar kartą.",
  "status.card.checking.body":
    "Laukiame, kol mokėjimas kortele bus patvirtintas. Paprastai tai užtrunka kelias sekundes. Galite palikti šį puslapį atidarytą – mokėti dar kartą nereikia.",
  "status.card.paid.body": "Jūsų mokėjimas kortele patvirtintas. Ačiū!",
  "status.card.failed.body":
    "{reason} Iš jūsų kortelės pinigai nenuskaičiuoti. Galite bandyti dar kartą su ta pačia ar kita kortele arba sumokėti per banką.",
  "status.card.atBank.heading": "Jūsų mokėjimas kortele baigiamas vykdyti",
  "status.card.atBank.body":
    "Mokėjimas kortele priimtas ir baigiamas vykdyti. Tai gali užtrukti kelias minutes. Galite uždaryti šį puslapį: parduotuvė bus informuota, kai tik mokėjimas bus patvirtintas. Nemokėkite dar kartą.",
  "status.card.slow.body":
    "Mokėjimas kortele dar nepatvirtintas. Kai jis bus patvirtintas, parduotuvė apie tai sužinos, todėl dabar galite saugiai grįžti į ją. Nemokėkite dar kartą.",
  "status.card.unreachable.body":
    "Nepavyko susisiekti su serveriu. Jei patvirtinote mokėjimą kortele, nemokėkite dar kartą.",
  "status.card.reason.refused_by_bank": "Jūsų kortelė atmesta.",
  "status.card.reason.cancelled_by_payer": "Mokėjimas kortele atšauktas.",
  "status.card.reason.insufficient_funds": "Kortelėje nepakako lėšų.",
  "status.card.reason.unknown": "Mokėjimas kortele neįvykdytas.",
  "status.checkAgain": "Tikrinti dar kartą",
  "status.notPaid.heading": "Šis užsakymas dar neapmokėtas",
  "status.notPaid.body": "Joks mokėjimas nevykdomas ir pinigai nebuvo nuskaičiuoti. Užsakymą galite apmokėti dabar.",
  "status.notPaid.action": "Eiti į apmokėjimą",

  "a11y.title": "Prieinamumo pareiškimas",
  "a11y.intro":
    "Norime, kad šiuo apmokėjimo puslapiu galėtų naudotis visi, kad ir kokį įrenginį ar pagalbines technologijas jie naudotų. Šis pareiškimas taikomas apmokėjimo puslapiui, mokėjimo būsenos puslapiui ir šiam puslapiui.",
  "a11y.statusHeading": "Kiek apmokėjimas prieinamas",
  "a11y.status":
    "Siekiame, kad apmokėjimas atitiktų Žiniatinklio turinio prieinamumo gairių (WCAG) 2.1 AA lygį – tokio lygio Europos prieinamumo aktas reikalauja iš internetinių mokėjimų. Kiek mums žinoma, jis šį lygį atitinka.",
  "a11y.measuresHeading": "Ką darome",
  "a11y.measure1":
    "Kiekviena apmokėjimo būsena (banko pasirinkimas, klaidos, vykdomas mokėjimas, kiekviena kalba) automatiniuose testuose tikrinama prieinamumo varikliu axe; naujai versijai leidžiama nulis pažeidimų.",
  "a11y.measure2":
    "Viskas veikia vien klaviatūra: bankų sąrašas yra akučių grupė, kurioje judama rodyklių klavišais, o paieškos laukelis sąrašą filtruoja rašant.",
  "a11y.measure3":
    "Kai ko nors trūksta, puslapis pasako, ko, ir perkelia ten fokusą; būsenos pokyčius perskaito ekrano skaitytuvai.",
  "a11y.measure4":
    "Tekstų ir valdiklių kontrastas atitinka WCAG reikalavimus, puslapis veikia padidinus iki 400 % ir siauruose ekranuose, o animacijos sustoja, kai sistema prašo mažinti judesį.",
  "a11y.measure5":
    "Apmokėjimas pateikiamas anglų, lietuvių, latvių ir estų kalbomis, o puslapis praneša naršyklei, kuria kalba jis parašytas.",
  "a11y.limitsHeading": "Žinomi apribojimai",
  "a11y.limit1":
    "Paspaudę „Mokėti“ tęsiate savo banko arba mokėjimo paslaugos teikėjo puslapiuose. Jų prieinamumo mes nekontroliuojame.",
  "a11y.limit2":
    "QR kodu mokėti telefonu be regos neįmanoma. Vietoj to galite atidaryti šio apmokėjimo nuorodą telefone arba tiesiog mokėti šiame įrenginyje.",
  "a11y.feedbackHeading": "Atsiliepimai ir kontaktai",
  "a11y.feedback":
    "Jei kuria nors apmokėjimo dalimi naudotis sunku, praneškite parduotuvei, kurioje perkate, ir nurodykite šio puslapio adresą. Parduotuvė tai perduos mums; stengiamės atsakyti per 5 darbo dienas.",
  "a11y.enforcementHeading": "Vykdymo užtikrinimas",
  "a11y.enforcement":
    "Jei mūsų atsakymas jūsų netenkina, galite kreiptis į savo šalies prieinamumo rinkos priežiūros instituciją.",
  "a11y.prepared": "Šis pareiškimas parengtas 2026 m. lapkričio 21 d., remiantis mūsų pačių atliktais bandymais.",
  "a11y.back": "Grįžti į apmokėjimą",

  "notFound.title": "Puslapis nerastas",
  "notFound.body":
    "Šio puslapio rasti nepavyko. Jei atėjote per mokėjimo nuorodą, ji gali būti neteisinga arba nebegalioti. Paprašykite parduotuvės naujos nuorodos.",
  "notFound.link": "Eiti į demonstracinę parduotuvę",
};

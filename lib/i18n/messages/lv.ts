import type { Messages } from "./en";

/** Latvian. */
export const lv: Messages = {
  "common.language": "Valoda",
  "common.accessibility": "Piekļūstamības paziņojums",
  "common.testBanner": "Šī apmaksa izmanto testa maksājumu projektu. Īsta nauda netiek pārskaitīta.",
  "common.testBannerLabel": "Testa režīms",
  "common.returnToShop": "Atgriezties veikalā",
  "common.tryAgain": "Mēģināt vēlreiz",
  "common.newTab": "atveras jaunā cilnē",
  "meta.siteName": "Maksājums ar banku",
  "meta.description":
    "Maksājiet ar banku: izvēlieties savu banku, apstipriniet maksājumu tajā un atgriezieties veikalā.",

  "checkout.title": "Apmaksa",
  "checkout.heading": "Apmaksa",
  "checkout.intro": "Maksājiet saņēmējam {payee} tieši no sava bankas konta.",
  "checkout.payHeading": "Maksājums",
  "embed.heading": "Maksāt ar banku",
  "checkout.paid.heading": "Šis pasūtījums jau ir apmaksāts",
  "checkout.paid.body": "Vairs nekas nav jāmaksā. Jūsu banka ir apstiprinājusi maksājumu.",
  "checkout.expired.heading": "Šīs apmaksas termiņš ir beidzies",
  "checkout.cancelled.heading": "Šī apmaksa ir atcelta",
  "checkout.ended.body":
    "Nauda netika iekasēta. Lai iegādātos šīs preces, atgriezieties veikalā un noformējiet pasūtījumu vēlreiz.",
  "expiry.deadline": "Samaksājiet līdz {time}. Pēc tam šī apmaksa vairs nebūs derīga.",
  "expiry.soon": "Samaksai atlikušas mazāk nekā divas minūtes: šī apmaksa nebūs derīga no {time}.",
  "expiry.runOut":
    "Laiks samaksai ir beidzies, taču jūsu sāktais maksājums vēl var tikt izpildīts: tā statuss ir redzams zemāk.",
  "checkout.failedNotice": "Pēdējais maksājuma mēģinājums neizdevās, un nauda netika iekasēta. Varat mēģināt vēlreiz.",
  "checkout.footerNote": "Maksājumus apstrādā licencēts maksājumu ierosināšanas pakalpojumu sniedzējs.",

  "summary.heading": "Pasūtījuma kopsavilkums",
  "summary.payee": "Saņēmējs",
  "summary.description": "Apraksts",
  "summary.reference": "Pasūtījuma nr.",
  "summary.total": "Kopā",
  "summary.items": "Pirkumi ({count})",

  "pay.methodLegend": "Kā vēlaties maksāt?",
  "pay.method.here": "Izvēlēšos banku šeit",
  "pay.method.hereHint": "Izvēlieties banku zemāk un dodieties tieši uz to.",
  "pay.method.hosted": "Izvēlēšos banku nākamajā lapā",
  "pay.method.hostedHint": "Maksājumu pakalpojuma sniedzējs parādīs jūsu valsts bankas.",
  "pay.method.card": "Maksāt ar karti",
  "pay.method.cardHint": "Kartes datus ievadīsiet nākamajā lapā.",
  "pay.method.hybrid": "Ar banku vai karti: izvēlēšos nākamajā lapā",
  "pay.method.hybridHint": "Maksājumu pakalpojuma sniedzējs piedāvās abus veidus.",
  "pay.country": "Jūsu bankas valsts",
  "pay.showBanks": "Rādīt šīs valsts bankas",
  "pay.terms": "Piekrītu maksājumu pakalpojuma sniedzēja {terms} un {privacy}",
  "pay.termsLink": "noteikumiem un nosacījumiem",
  "pay.privacyLink": "privātuma politikai",
  "pay.nextPage.hosted":
    "Banku izvēlēsieties un maksājumu pakalpojuma sniedzēja noteikumiem piekritīsiet nākamajā lapā.",
  "pay.nextPage.card":
    "Kartes datus ievadīsiet un maksājumu pakalpojuma sniedzēja noteikumiem piekritīsiet nākamajā lapā.",
  "pay.nextPage.hybrid":
    "Banku vai karti izvēlēsieties un maksājumu pakalpojuma sniedzēja noteikumiem piekritīsiet nākamajā lapā.",
  "pay.consent.heading": "Jūs gatavojaties samaksāt",
  "pay.consent.amount": "Summa",
  "pay.consent.payee": "Saņēmējs",
  "pay.consent.from": "No",
  "pay.consent.noBank": "Izvēlieties banku augstāk",
  "pay.consent.nextPage": "Jūsu bankas, ko izvēlēsieties nākamajā lapā",
  "pay.consent.card": "Ar jūsu karti, nākamajā lapā",
  "pay.consent.hybrid": "Ar banku vai karti, nākamajā lapā",
  "pay.button": "Maksāt {amount}",
  "pay.leaving.bank": "Novirzām uz jūsu banku…",
  "pay.stuck": "Nekas nenotiek?",
  "pay.continue": "Turpināt savā bankā",
  "pay.leaving.provider": "Novirzām uz maksājuma lapu…",
  "pay.missing.both": "Lai maksātu, izvēlieties banku un piekrītiet noteikumiem un nosacījumiem.",
  "pay.missing.bank": "Lai maksātu, izvēlieties banku.",
  "pay.missing.terms": "Lai maksātu, piekrītiet noteikumiem un nosacījumiem.",
  "pay.afterNote": "Maksājumu ({amount}, saņēmējs {payee}) apstiprināsiet savā bankā.",
  "pay.afterNote.card": "Maksājumu ({amount}, saņēmējs {payee}) apstiprināsiet nākamajā lapā.",

  "errors.label": "Veidlapas kļūdas",
  "errors.title": "Pirms maksāšanas:",
  "errors.bank": "Izvēlieties banku",
  "errors.terms": "Piekrītiet noteikumiem un nosacījumiem",

  "payError.label": "Maksājuma kļūda",
  "payError.network": "Neizdevās sazināties ar serveri. Pārbaudiet savienojumu un mēģiniet vēlreiz.",
  "payError.generic": "Mūsu pusē radās kļūda, un nauda netika iekasēta. Lūdzu, mēģiniet vēlreiz.",
  // One message per error code of lib/errors.ts (the English one is the problem's title).
  "apiError.invalid_request": "Daži pieprasījuma dati nav derīgi.",
  "apiError.invalid_json": "Pieprasījums nav derīgs JSON.",
  "apiError.invalid_body": "Pieprasījumu neizdevās nolasīt.",
  "apiError.unauthorized": "Jūs neesat pieteicies vai API atslēga nav derīga.",
  "apiError.checkout_not_found": "Šī apmaksa vairs nepastāv. Atgriezieties veikalā un sāciet no jauna.",
  "apiError.method_not_allowed": "Šī adrese nepieņem šo metodi.",
  "apiError.not_found": "Šādas adreses API nav.",
  "apiError.unsupported_media_type": "Pieprasījuma saturam jābūt JSON (Content-Type: application/json).",
  "apiError.cross_site_action": "Šī veidlapa nosūtīta no citas vietnes.",
  "apiError.role_forbidden": "Jūsu loma to neatļauj. Vērsieties pie administratora.",
  "apiError.insufficient_scope": "Šai API atslēgai nav šīs darbības tiesību.",
  "apiError.length_required": "Pieprasījumā nav norādīts tā garums.",
  "apiError.body_too_large": "Pieprasījums ir pārāk liels.",
  "apiError.idempotency_key_reused": "Šī Idempotency-Key jau tika izmantota citam pieprasījumam.",
  "apiError.rate_limited": "Īsā laikā veikts pārāk daudz mēģinājumu. Lūdzu, uzgaidiet minūti un mēģiniet vēlreiz.",
  "apiError.terms_required": "Lūdzu, piekrītiet noteikumiem un nosacījumiem.",
  "apiError.unknown_bank": "Lūdzu, izvēlieties kādu no sarakstā esošajām bankām.",
  "apiError.method_unavailable": "Šis maksāšanas veids pašlaik nav pieejams. Lūdzu, izvēlieties citu.",
  "apiError.saving_unavailable":
    "Bankas kontu šeit pašlaik nevar saglabāt. Jūs joprojām varat maksāt, to nesaglabājot.",
  "apiError.already_paid": "Šis pasūtījums jau ir apmaksāts.",
  "apiError.checkout_cancelled": "Veikals šo apmaksu atcēla.",
  "apiError.checkout_expired": "Šīs apmaksas laiks ir beidzies. Atgriezieties veikalā un sāciet no jauna.",
  "apiError.payment_in_progress": "Šī pasūtījuma maksājums jau tiek apstrādāts.",
  "apiError.payment_authorised":
    "Jūsu banka šo maksājumu jau ir saņēmusi, tāpēc to nevar aizstāt. Pārbaudiet tā statusu.",
  "apiError.attempt_failed": "Šis maksājuma mēģinājums neizdevās, un nauda netika iekasēta. Lūdzu, mēģiniet vēlreiz.",
  "apiError.saved_account_ended": "Jūsu saglabāto bankas kontu vairs nevar izmantot. Lūdzu, izvēlieties savu banku.",
  "apiError.no_saved_account": "Nav saglabāta bankas konta, no kura maksāt. Lūdzu, izvēlieties savu banku.",
  "apiError.not_paid": "Atmaksāt var tikai apmaksātu pasūtījumu.",
  "apiError.refund_currency": "Šajā valūtā atmaksa nav iespējama.",
  "apiError.refund_not_allowed": "Šim veikalam šāda veida maksājumu atmaksa nav ieslēgta.",
  "apiError.refund_too_late": "Šis maksājums ir pārāk vecs, lai to atmaksātu.",
  "apiError.refund_exceeds_payment": "Atmaksa pārsniedz summu, ko vēl var atmaksāt.",
  "apiError.refund_refused": "Maksājumu pakalpojums noraidīja šo atmaksu. Nauda netika atmaksāta.",
  "apiError.provider_error":
    "Pašlaik neizdevās sazināties ar maksājumu pakalpojuma sniedzēju. Nauda netika iekasēta. Lūdzu, mēģiniet vēlreiz.",
  "apiError.payment_refused":
    "Maksājumu pakalpojums atteicās sākt šo maksājumu. Nauda netika iekasēta. Lūdzu, maksājiet citā veidā vai sazinieties ar veikalu.",
  "apiError.banks_unavailable": "Banku sarakstu neizdevās ielādēt. Lūdzu, mēģiniet vēlreiz.",
  "apiError.webhook_malformed": "Webhook paziņojumu neizdevās nolasīt.",
  "apiError.webhook_unsigned": "Webhook paziņojums nav parakstīts ar šī veikala slepeno atslēgu.",
  "apiError.webhook_unknown_payment": "Webhook paziņojums attiecas uz maksājumu, ko šis veikals nezina.",
  "apiError.internal_error": "Mūsu pusē radās kļūda. Lūdzu, mēģiniet vēlreiz.",
  "payError.badLink": "Neizdevās atvērt maksājuma lapu. Lūdzu, mēģiniet vēlreiz.",

  "picker.label": "Jūsu banka",
  "picker.search": "Meklēt banku",
  "picker.searchHint": "Nosaukums vai saīsinājums, piem., „swed”.",
  "picker.loading": "Ielādē bankas…",
  "picker.loadError": "Neizdevās ielādēt banku sarakstu.",
  "picker.count": "Atrastas bankas: {count}",
  "picker.noMatch": "Vaicājumam „{query}” neatbilst neviena banka.",
  "picker.noMatchHint": "Pārbaudiet rakstību vai ļaujiet maksājumu pakalpojuma sniedzējam parādīt bankas.",
  "picker.noBanks": "Valstī {country} nav banku, ko varētu izvēlēties.",
  "picker.noBanksHint": "Izvēlieties citu valsti vai ļaujiet maksājumu pakalpojuma sniedzējam parādīt bankas.",
  "picker.useHosted": "Izvēlēšos banku nākamajā lapā",
  "picker.lastUsed": "Pēdējā izmantotā",
  "picker.showAll": "Rādīt visas bankas ({count})",

  "attempt.heading": "Jūsu maksājums tiek apstrādāts",
  "attempt.body":
    "Jūs sākāt maksāt {amount} no bankas {bank}. Ja apstiprinājāt maksājumu bankā, pārbaudiet tā statusu, nevis maksājiet vēlreiz.",
  "attempt.bodyNoBank":
    "Jūs sākāt maksāt {amount}. Ja apstiprinājāt maksājumu pakalpojuma sniedzēja lapā, pārbaudiet tā statusu, nevis maksājiet vēlreiz.",
  "attempt.state.waiting": "Statuss: gaidām, kad apstiprināsiet maksājumu savā bankā.",
  "attempt.state.pending": "Statuss: jūsu banka apstrādā maksājumu.",
  "attempt.state.paid": "Statuss: jūsu banka ir apstiprinājusi maksājumu.",
  "attempt.state.failed": "Statuss: maksājums neizdevās. Nauda netika iekasēta.",
  "attempt.check": "Apstiprināju – pārbaudīt statusu",
  "attempt.another": "Izvēlēties citu banku",
  "attempt.anotherHint": "Nepabeigtais maksājums tiks apturēts, lai jūs varētu maksāt vēlreiz.",
  "attempt.abandoning": "Apturam nepabeigto maksājumu…",
  "attempt.authorised": "Jūsu banka šo maksājumu jau ir saņēmusi, tāpēc to nevar aizstāt. Pārbaudiet tā statusu.",
  "attempt.abandoned": "Nepabeigtais maksājums ir apturēts. Tagad varat izvēlēties citu banku.",

  "saved.heading": "Jūsu saglabātais bankas konts",
  "saved.accountOf": "Konts bankā {bank}",
  "saved.covers": "Jūsu pieejamais atlikums ir pietiekams šim maksājumam.",
  "saved.short":
    "Jūsu pieejamais atlikums var nebūt pietiekams, lai samaksātu {amount}. Varat tomēr mēģināt vai maksāt citā veidā.",
  "saved.pay": "Maksāt {amount} no šī konta",
  "saved.oneClickHint": "Nav jāpiesakās bankā un jāizvēlas konts: jums tikai jāapstiprina maksājums.",
  "saved.terms": "Maksājot jūs piekrītat maksājumu pakalpojuma sniedzēja {terms} un {privacy}.",
  "saved.another": "Maksāt citā veidā",
  "saved.forget": "Aizmirst šo kontu",
  "saved.forgetting": "Aizmirstam kontu…",
  "saved.notice.forgotten": "Jūsu saglabātais bankas konts ir aizmirsts. Lai maksātu, izvēlieties banku zemāk.",
  "saved.forgetError": "Pašlaik neizdevās aizmirst kontu. Lūdzu, mēģiniet vēlreiz.",
  "saved.remember": "Atcerēties šo bankas kontu ātrākiem maksājumiem",
  "saved.rememberHint":
    "90 dienas varēsiet maksāt ar vienu klikšķi, nepiesakoties savā bankā. Kontu varat aizmirst jebkurā laikā.",
  "saved.leaving": "Novirzām uz jūsu banku, lai saglabātu kontu…",
  "saved.expired":
    "Jūsu saglabāto kontu bankā {bank} vairs nevar izmantot maksājumiem ar vienu klikšķi: saglabātie konti ir derīgi 90 dienas, un jūsu banka var to derīgumu izbeigt agrāk. Izvēlieties banku un atzīmējiet „Atcerēties šo bankas kontu ātrākiem maksājumiem”, lai to saglabātu vēlreiz.",
  "saved.notice.declined": "Jūsu bankas konts netika saglabāts. Jūs joprojām varat maksāt.",
  "saved.notice.failed": "Neizdevās saglabāt jūsu bankas kontu. Jūs joprojām varat maksāt.",
  "saved.notice.elsewhere":
    "Jūsu bankas konts netika saglabāts: tas tika piesaistīts citā pārlūkprogrammā, nevis tajā, kurā sākāt. Šeit varat maksāt kā parasti.",
  "saved.notice.linked": "Jūsu bankas konts ir saglabāts. Tagad varat maksāt.",

  "qr.heading": "Maksājiet tālrunī",
  "qr.alt": "Skenējiet, lai maksātu tālrunī",
  "qr.hint": "Noskenējiet šo kodu ar tālruņa kameru: šī apmaksa atvērsies tālrunī, un varēsiet maksāt bankas lietotnē.",
  "qr.reload": "Samaksājāt tālrunī? Parādīt šeit",

  "status.title": "Maksājuma statuss",
  "status.checking.heading": "Pārbaudām jūsu maksājumu…",
  "status.checking.body":
    "Gaidām, kad jūsu banka apstiprinās maksājumu. Parasti tas aizņem dažas sekundes. Varat atstāt šo lapu atvērtu – vēlreiz maksāt nav nepieciešams.",
  "status.paid.heading": "Maksājums saņemts",
  "status.paid.body": "Jūsu banka ir apstiprinājusi maksājumu. Paldies!",
  "status.failed.heading": "Maksājums neizdevās",
  "status.failed.body":
    "{reason} Nauda no jūsu konta netika iekasēta. Varat mēģināt vēlreiz ar to pašu vai citu banku.",
  "status.reason.cancelled_by_payer": "Maksājums tika atcelts bankā.",
  "status.reason.refused_by_bank": "Jūsu banka noraidīja maksājumu.",
  "status.reason.insufficient_funds": "Kontā nepietika līdzekļu.",
  "status.reason.expired": "Maksājums netika apstiprināts laikā.",
  "status.reason.provider_error": "Maksājumu pakalpojuma sniedzējs nevarēja pabeigt maksājumu.",
  "status.reason.unknown": "Jūsu banka nepabeidza maksājumu.",
  "status.expired.heading": "Šīs apmaksas termiņš ir beidzies",
  "status.cancelled.heading": "Šī apmaksa ir atcelta",
  "status.ended.body": "Nauda netika iekasēta. Atgriezieties veikalā, lai noformētu pasūtījumu vēlreiz.",
  "status.atBank.heading": "Jūsu banka apstrādā maksājumu",
  "status.atBank.body":
    "Jūsu banka ir pieņēmusi maksājumu un to pabeidz. Tas var aizņemt no dažām minūtēm līdz vienai darba dienai. Varat aizvērt šo lapu: veikals tiks informēts, tiklīdz banka apstiprinās maksājumu. Lūdzu, nemaksājiet vēlreiz.",
  "status.slow.heading": "Joprojām pārbaudām jūsu maksājumu",
  "status.slow.body":
    "Jūsu banka vēl nav apstiprinājusi maksājumu. Kad banka to apstiprinās, veikals par to uzzinās, tāpēc tagad varat droši atgriezties veikalā. Lūdzu, nemaksājiet vēlreiz.",
  "status.unreachable.heading": "Neizdevās pārbaudīt jūsu maksājumu",
  "status.unreachable.body":
    "Neizdevās sazināties ar serveri. Ja apstiprinājāt maksājumu bankā, lūdzu, nemaksājiet vēlreiz.",
  "status.card.checking.body":
    "Gaidām, kad maksājums ar karti tiks apstiprināts. Parasti tas aizņem dažas sekundes. Varat atstāt šo lapu atvērtu – vēlreiz maksāt nav nepieciešams.",
  "status.card.paid.body": "Jūsu maksājums ar karti ir apstiprināts. Paldies!",
  "status.card.failed.body":
    "{reason} Nauda no jūsu kartes netika iekasēta. Varat mēģināt vēlreiz ar to pašu vai citu karti vai samaksāt ar banku.",
  "status.card.atBank.heading": "Jūsu maksājums ar karti tiek pabeigts",
  "status.card.atBank.body":
    "Maksājums ar karti ir pieņemts un tiek pabeigts. Tas var aizņemt dažas minūtes. Varat aizvērt šo lapu: veikals tiks informēts, tiklīdz maksājums būs apstiprināts. Lūdzu, nemaksājiet vēlreiz.",
  "status.card.slow.body":
    "Maksājums ar karti vēl nav apstiprināts. Kad tas tiks apstiprināts, veikals par to uzzinās, tāpēc tagad varat droši atgriezties veikalā. Lūdzu, nemaksājiet vēlreiz.",
  "status.card.unreachable.body":
    "Neizdevās sazināties ar serveri. Ja apstiprinājāt maksājumu ar karti, lūdzu, nemaksājiet vēlreiz.",
  "status.card.reason.refused_by_bank": "Jūsu karte tika noraidīta.",
  "status.card.reason.cancelled_by_payer": "Maksājums ar karti tika atcelts.",
  "status.card.reason.insufficient_funds": "Kartē nepietika līdzekļu.",
  "status.card.reason.unknown": "Maksājums ar karti netika pabeigts.",
  "status.checkAgain": "Pārbaudīt vēlreiz",
  "status.notPaid.heading": "Šis pasūtījums vēl nav apmaksāts",
  "status.notPaid.body": "Neviens maksājums netiek veikts, un nauda netika iekasēta. Pasūtījumu varat apmaksāt tagad.",
  "status.notPaid.action": "Doties uz apmaksu",

  "a11y.title": "Piekļūstamības paziņojums",
  "a11y.intro":
    "Mēs vēlamies, lai ar šo apmaksas lapu varētu samaksāt ikviens neatkarīgi no ierīces vai palīgtehnoloģijām. Šis paziņojums attiecas uz apmaksas lapu, maksājuma statusa lapu un šo lapu.",
  "a11y.statusHeading": "Cik piekļūstama ir apmaksa",
  "a11y.status":
    "Apmaksas lapa tiecas atbilst Tīmekļa satura piekļūstamības vadlīniju (WCAG) 2.1 AA līmenim – tādu līmeni tiešsaistes maksājumiem prasa Eiropas Piekļūstamības akts. Cik mums zināms, tā šim līmenim atbilst.",
  "a11y.measuresHeading": "Ko mēs darām",
  "a11y.measure1":
    "Katrs apmaksas stāvoklis (bankas izvēle, kļūdas, notiekošs maksājums, katra valoda) mūsu automātiskajos testos tiek pārbaudīts ar piekļūstamības rīku axe, un jaunai versijai pieļaujams nulle pārkāpumu.",
  "a11y.measure2":
    "Viss darbojas tikai ar tastatūru: banku saraksts ir radiopogu grupa, kurā pārvietojas ar bulttaustiņiem, un meklēšanas lauks filtrē sarakstu rakstīšanas laikā.",
  "a11y.measure3":
    "Ja kaut kā trūkst, lapa pasaka, kā tieši, un pārvieto fokusu uz to; statusa izmaiņas tiek paziņotas ekrāna lasītājiem.",
  "a11y.measure4":
    "Teksta un vadīklu kontrasts atbilst WCAG prasībām, lapa darbojas ar 400 % tālummaiņu un šauros ekrānos, un animācijas apstājas, ja sistēma lūdz samazināt kustību.",
  "a11y.measure5":
    "Apmaksa ir pieejama angļu, lietuviešu, latviešu un igauņu valodā, un lapa paziņo pārlūkam, kurā valodā tā ir.",
  "a11y.limitsHeading": "Zināmie ierobežojumi",
  "a11y.limit1":
    "Pēc pogas “Maksāt” nospiešanas jūs turpināt savas bankas vai maksājumu pakalpojuma sniedzēja lapās. Mēs nevaram ietekmēt to piekļūstamību.",
  "a11y.limit2":
    "QR kodu maksāšanai tālrunī nevar izmantot bez redzes. Tā vietā varat atvērt šīs apmaksas saiti tālrunī vai vienkārši maksāt šajā ierīcē.",
  "a11y.feedbackHeading": "Atsauksmes un saziņa",
  "a11y.feedback":
    "Ja kādu apmaksas daļu ir grūti lietot, lūdzu, pastāstiet to veikalam, kurā iepērkaties, un norādiet šīs lapas adresi. Veikals to nodos mums; cenšamies atbildēt 5 darba dienu laikā.",
  "a11y.enforcementHeading": "Izpildes nodrošināšana",
  "a11y.enforcement":
    "Ja mūsu atbilde jūs neapmierina, varat vērsties savas valsts piekļūstamības tirgus uzraudzības iestādē.",
  "a11y.prepared": "Šis paziņojums sagatavots 2026. gada 21. novembrī, pamatojoties uz mūsu pašu veiktajām pārbaudēm.",
  "a11y.back": "Atpakaļ uz apmaksu",

  "notFound.title": "Lapa nav atrasta",
  "notFound.body":
    "Šo lapu neizdevās atrast. Ja atvērāt maksājuma saiti, tā var būt kļūdaina vai vairs nav derīga. Lūdziet veikalam jaunu saiti.",
  "notFound.link": "Doties uz demonstrācijas veikalu",
};

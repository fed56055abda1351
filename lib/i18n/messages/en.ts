/**
 * English: the reference catalogue. Every other locale is typed as `Messages`, so a message id
 * missing (or misspelt) in any locale fails the type-check. `{name}` marks a value filled in at
 * run time; the same names must appear in every translation.
 */
export const en = {
  // Shared
  "common.language": "Language",
  "common.accessibility": "Accessibility statement",
  "common.testBanner": "This checkout uses a test payment project. No real money moves.",
  "common.testBannerLabel": "Test mode",
  "common.returnToShop": "Return to the shop",
  "common.tryAgain": "Try again",
  "common.newTab": "opens in a new tab",
  // The site's name, after each page's own title ("Checkout · Bank checkout").
  "meta.siteName": "Bank checkout",
  // The page's <meta name="description">
  "meta.description": "Pay by bank: choose your bank, approve the payment there, and return to the shop.",

  // Checkout page
  "checkout.title": "Checkout",
  "checkout.heading": "Checkout",
  "checkout.intro": "Pay {payee} directly from your bank account.",
  "checkout.payHeading": "Payment",
  "embed.heading": "Pay by bank",
  "checkout.paid.heading": "This order is already paid",
  "checkout.paid.body": "There is nothing more to pay. Your bank has confirmed the payment.",
  "checkout.expired.heading": "This checkout has expired",
  "checkout.cancelled.heading": "This checkout was cancelled",
  "checkout.ended.body": "No payment was taken. To buy these items, go back to the shop and place the order again.",
  // A checkout that expires within 20 hours says when (WCAG 2.2.1); {time} is in the payer's time zone.
  "expiry.deadline": "Pay by {time}. After that, this checkout expires.",
  "expiry.soon": "Less than two minutes left to pay: this checkout expires at {time}.",
  "expiry.runOut":
    "The time to pay has run out, but the payment you started can still go through: its status is below.",
  "checkout.failedNotice": "Your last payment attempt did not go through, and no money was taken. You can try again.",
  "checkout.footerNote": "Payments are processed by a licensed payment initiation service.",

  // Order summary
  "summary.heading": "Order summary",
  "summary.payee": "Pay to",
  "summary.description": "Description",
  "summary.reference": "Reference",
  "summary.total": "Total",
  // The order's lines, under a disclosure that shows how many there are.
  "summary.items": "Items ({count})",

  // Payment form
  "pay.methodLegend": "How would you like to pay?",
  "pay.method.here": "Choose my bank here",
  "pay.method.hereHint": "Pick your bank below and go straight to it.",
  "pay.method.hosted": "Choose my bank on the next page",
  "pay.method.hostedHint": "The payment service lists the banks of your country.",
  "pay.method.card": "Pay by card",
  "pay.method.cardHint": "Enter your card details on the next page.",
  "pay.method.hybrid": "Bank or card: choose on the next page",
  "pay.method.hybridHint": "The payment service offers both.",
  "pay.country": "Country of your bank",
  "pay.showBanks": "Show this country's banks",
  "pay.terms": "I agree to the payment service's {terms} and {privacy}",
  "pay.termsLink": "Terms and Conditions",
  "pay.privacyLink": "Privacy Policy",
  "pay.nextPage.hosted": "You will choose your bank and accept the payment service's terms on the next page.",
  "pay.nextPage.card": "You will enter your card details and accept the payment service's terms on the next page.",
  "pay.nextPage.hybrid":
    "You will choose between bank and card and accept the payment service's terms on the next page.",
  "pay.consent.heading": "You are about to pay",
  "pay.consent.amount": "Amount",
  "pay.consent.payee": "To",
  "pay.consent.from": "From",
  "pay.consent.noBank": "Choose your bank above",
  "pay.consent.nextPage": "Your bank, chosen on the next page",
  "pay.consent.card": "Your card, on the next page",
  "pay.consent.hybrid": "Bank or card, on the next page",
  "pay.button": "Pay {amount}",
  "pay.leaving.bank": "Taking you to your bank…",
  "pay.stuck": "Nothing happening?",
  "pay.continue": "Continue to your bank",
  "pay.leaving.provider": "Taking you to the payment page…",
  "pay.missing.both": "To pay, choose your bank and accept the Terms and Conditions.",
  "pay.missing.bank": "To pay, choose your bank.",
  "pay.missing.terms": "To pay, accept the Terms and Conditions.",
  "pay.afterNote": "You will approve the payment of {amount} to {payee} at your bank.",
  "pay.afterNote.card": "You will approve the payment of {amount} to {payee} on the next page.",

  // Problems before paying
  "errors.label": "Form errors",
  "errors.title": "Before you pay:",
  "errors.bank": "Choose your bank",
  "errors.terms": "Accept the Terms and Conditions",

  // Problems when starting the payment (never raw codes)
  "payError.label": "Payment error",
  "payError.network": "We could not reach the server. Check your connection and try again.",
  "payError.generic": "Something went wrong on our side, and no money was taken. Please try again.",
  // One message per error code of lib/errors.ts (the English one is the problem's title).
  "apiError.invalid_request": "Some details of the request are not valid.",
  "apiError.invalid_json": "The request is not valid JSON.",
  "apiError.invalid_body": "The request could not be read.",
  "apiError.unauthorized": "You are not signed in, or the API key is not valid.",
  "apiError.checkout_not_found": "This checkout no longer exists. Go back to the shop to start again.",
  "apiError.method_not_allowed": "This address does not take that method.",
  "apiError.not_found": "This address is not part of the API.",
  "apiError.unsupported_media_type": "The request body must be JSON (Content-Type: application/json).",
  "apiError.cross_site_action": "This form was sent from another site.",
  "apiError.role_forbidden": "Your role may not do this. Ask an admin.",
  "apiError.insufficient_scope": "This API key may not do this: it lacks the scope.",
  "apiError.length_required": "The request did not say how long it is.",
  "apiError.body_too_large": "The request is too large.",
  "apiError.idempotency_key_reused": "This Idempotency-Key was already used with a different request.",
  "apiError.rate_limited": "Too many attempts in a short time. Please wait a minute and try again.",
  "apiError.terms_required": "Please accept the Terms and Conditions.",
  "apiError.unknown_bank": "Please choose one of the banks in the list.",
  "apiError.method_unavailable": "This way of paying is not available right now. Please choose another one.",
  "apiError.saving_unavailable":
    "Saving a bank account is not possible here right now. You can still pay without saving it.",
  "apiError.already_paid": "This order is already paid.",
  "apiError.checkout_cancelled": "This checkout was cancelled by the shop.",
  "apiError.checkout_expired": "This checkout has expired. Go back to the shop to start again.",
  "apiError.payment_link_not_found": "There is no payment link at this address. Check the link you were given.",
  "apiError.payment_link_ended": "This payment link takes no more payments.",
  "apiError.payment_link_busy": "The last payment this link takes is being paid right now. Try again in a few minutes.",
  "apiError.payment_in_progress": "A payment for this order is already in progress.",
  "apiError.payment_authorised":
    "Your bank already has this payment, so it cannot be replaced. Check its status instead.",
  "apiError.attempt_failed": "That payment attempt did not go through, and no money was taken. Please try again.",
  "apiError.saved_account_ended": "Your saved bank account can no longer be used. Please choose your bank.",
  "apiError.no_saved_account": "There is no saved bank account to pay with. Please choose your bank.",
  "apiError.not_paid": "Only a paid checkout can be refunded.",
  "apiError.refund_currency": "Refunds are not possible in this currency.",
  "apiError.refund_not_allowed": "Refunds of this kind of payment are not enabled for this shop.",
  "apiError.refund_too_late": "This payment is too old to be refunded.",
  "apiError.refund_exceeds_payment": "The refund is more than what can still be refunded.",
  "apiError.refund_refused": "The payment service refused this refund. No money was returned.",
  "apiError.provider_error": "We could not reach the payment service just now. No money was taken. Please try again.",
  "apiError.payment_refused":
    "The payment service refused to start this payment. No money was taken. Please pay another way, or contact the shop.",
  "apiError.banks_unavailable": "The list of banks could not be loaded. Please try again.",
  "apiError.webhook_malformed": "The webhook could not be read.",
  "apiError.webhook_unsigned": "The webhook is not signed with this shop's secret.",
  "apiError.webhook_unknown_payment": "The webhook is about a payment this shop does not know.",
  "apiError.internal_error": "Something went wrong on our side. Please try again.",
  "apiError.service_unavailable": "The service is briefly unavailable. Please try again in a few seconds.",
  "payError.badLink": "We could not open the payment page. Please try again.",

  // Bank picker
  "picker.label": "Your bank",
  "picker.search": "Search banks",
  "picker.searchHint": "A name or short name, such as “swed”.",
  "picker.loading": "Loading banks…",
  "picker.loadError": "We could not load the banks.",
  "picker.count": "Banks found: {count}",
  "picker.noMatch": "No bank matches “{query}”.",
  "picker.noMatchHint": "Check the spelling, or let the payment service show you the banks.",
  "picker.noBanks": "There are no banks to choose from in {country}.",
  "picker.noBanksHint": "Choose another country, or let the payment service show you the banks.",
  "picker.useHosted": "Choose my bank on the next page",
  "picker.lastUsed": "Last used",
  "picker.showAll": "Show all {count} banks",

  // An attempt in flight (after Back from the bank)
  "attempt.heading": "Your payment is in progress",
  "attempt.body":
    "You started paying {amount} from {bank}. If you approved it at your bank, check its status instead of paying again.",
  "attempt.bodyNoBank":
    "You started paying {amount}. If you approved it at the payment service, check its status instead of paying again.",
  "attempt.state.waiting": "Status: waiting for you to approve the payment at your bank.",
  "attempt.state.pending": "Status: your bank is processing the payment.",
  "attempt.state.paid": "Status: your bank has confirmed the payment.",
  "attempt.state.failed": "Status: the payment did not go through. No money was taken.",
  "attempt.check": "I have approved it — check status",
  "attempt.another": "Choose another bank",
  "attempt.anotherHint": "This stops the unfinished payment so that you can pay again.",
  "attempt.abandoning": "Stopping the unfinished payment…",
  "attempt.authorised": "Your bank already has this payment, so it cannot be replaced. Check its status instead.",
  "attempt.abandoned": "The unfinished payment was stopped. You can now choose another bank.",

  // A saved bank account (account linking, one-click payments)
  "saved.heading": "Your saved bank account",
  "saved.accountOf": "{bank} account",
  "saved.covers": "Your available balance covers this payment.",
  "saved.short": "Your available balance may not cover {amount}. You can still try, or pay another way.",
  "saved.pay": "Pay {amount} from this account",
  "saved.oneClickHint": "No bank login and no account choice: you only approve the payment.",
  "saved.terms": "By paying you agree to the payment service's {terms} and {privacy}.",
  "saved.another": "Pay another way",
  "saved.forget": "Forget this account",
  "saved.forgetting": "Forgetting the account…",
  "saved.notice.forgotten": "We forgot your saved bank account. Choose your bank below to pay.",
  "saved.forgetError": "We could not forget the account just now. Please try again.",
  "saved.remember": "Remember this bank account for faster payments",
  "saved.rememberHint": "For 90 days, pay in one click without logging in to your bank. You can forget it at any time.",
  "saved.leaving": "Taking you to your bank to save the account…",
  "saved.expired":
    "Your saved {bank} account can no longer be used for one-click payments: saved accounts last 90 days, and your bank can end them sooner. Choose your bank and tick “Remember this bank account” to save it again.",
  "saved.notice.declined": "Your bank account was not saved. You can still pay.",
  "saved.notice.failed": "We could not save your bank account. You can still pay.",
  "saved.notice.elsewhere":
    "Your bank account was not saved: it was linked in another browser than the one where you started. You can pay here as usual.",
  "saved.notice.linked": "Your bank account is saved. You can pay now.",

  // Desktop to phone
  "qr.heading": "Pay on your phone",
  "qr.alt": "Scan to pay on your phone",
  "qr.hint": "Scan this code with your phone's camera to open this checkout there and pay in your bank's app.",
  "qr.reload": "Paid on your phone? Show it here",

  // Landing page (after the bank)
  "status.title": "Payment status",
  "status.checking.heading": "Confirming your payment…",
  "status.checking.body":
    "We are waiting for your bank to confirm the payment. This usually takes a few seconds. You can keep this page open; there is no need to pay again.",
  "status.paid.heading": "Payment received",
  "status.paid.body": "Your bank has confirmed the payment. Thank you!",
  "status.failed.heading": "Payment failed",
  "status.failed.body":
    "{reason} No money was taken from your account. You can try again with the same or another bank.",
  "status.reason.cancelled_by_payer": "The payment was cancelled at the bank.",
  "status.reason.refused_by_bank": "Your bank rejected the payment.",
  "status.reason.insufficient_funds": "There was not enough money in the account.",
  "status.reason.expired": "The payment was not approved in time.",
  "status.reason.provider_error": "The payment service could not complete the payment.",
  "status.reason.unknown": "Your bank did not complete the payment.",
  "status.expired.heading": "This checkout has expired",
  "status.cancelled.heading": "This checkout was cancelled",
  "status.ended.body": "No payment was taken. Return to the shop to place the order again.",
  "status.atBank.heading": "Your bank is processing the payment",
  "status.atBank.body":
    "Your bank has accepted the payment and is completing it. This can take from a few minutes to one working day. You can close this page: the shop will be told as soon as the bank confirms. Please do not pay again.",
  "status.slow.heading": "Still confirming your payment",
  "status.slow.body":
    "Your bank has not confirmed the payment yet. We will update the shop when the bank confirms, so you can safely return to it now. Please do not pay again.",
  "status.unreachable.heading": "We could not check your payment",
  "status.unreachable.body":
    "We could not reach the server. If you approved the payment at your bank, please do not pay again.",
  "status.card.checking.body":
    "We are waiting for the card payment to be confirmed. This usually takes a few seconds. You can keep this page open; there is no need to pay again.",
  "status.card.paid.body": "Your card payment is confirmed. Thank you!",
  "status.card.failed.body":
    "{reason} No money was taken from your card. You can try again with the same or another card, or pay by bank.",
  "status.card.atBank.heading": "Your card payment is being completed",
  "status.card.atBank.body":
    "The card payment has been accepted and is being completed. This can take a few minutes. You can close this page: the shop will be told as soon as it is confirmed. Please do not pay again.",
  "status.card.slow.body":
    "The card payment has not been confirmed yet. We will update the shop when it is, so you can safely return to it now. Please do not pay again.",
  "status.card.unreachable.body":
    "We could not reach the server. If you confirmed the card payment, please do not pay again.",
  "status.card.reason.refused_by_bank": "Your card was declined.",
  "status.card.reason.cancelled_by_payer": "The card payment was cancelled.",
  "status.card.reason.insufficient_funds": "There was not enough money on the card.",
  "status.card.reason.unknown": "The card payment was not completed.",
  "status.checkAgain": "Check again",
  "status.notPaid.heading": "This order is not paid yet",
  "status.notPaid.body": "No payment is under way and no money has been taken. You can pay for the order now.",
  "status.notPaid.action": "Go to payment",

  // Accessibility statement
  "a11y.title": "Accessibility statement",
  "a11y.intro":
    "We want everyone to be able to pay with this checkout, whatever device or assistive technology they use. This statement covers the checkout page, the payment status page and this page.",
  "a11y.statusHeading": "How accessible the checkout is",
  "a11y.status":
    "The checkout aims to meet the Web Content Accessibility Guidelines (WCAG) 2.1 at level AA, the level the European Accessibility Act asks of online payments. As far as we know, it meets that level.",
  "a11y.measuresHeading": "What we do",
  "a11y.measure1":
    "Every state of the checkout (choosing a bank, errors, a payment in progress, each language) is checked with the axe accessibility engine in our automated tests, and a release needs zero violations.",
  "a11y.measure2":
    "Everything works with a keyboard alone: the bank list is a group of radio buttons you move through with the arrow keys, and the search box filters it as you type.",
  "a11y.measure3":
    "When something is missing, the page says what it is and moves the focus to it; status changes are announced to screen readers.",
  "a11y.measure4":
    "Text and controls have at least the contrast WCAG asks for, the page works at 400% zoom and on narrow screens, and animations stop when your system asks for reduced motion.",
  "a11y.measure5":
    "The checkout is available in English, Lithuanian, Latvian and Estonian, and the page tells your browser which language it is in.",
  "a11y.limitsHeading": "Known limitations",
  "a11y.limit1":
    "After you press Pay you continue on your bank's or the payment service's pages. We do not control how accessible those pages are.",
  "a11y.limit2":
    "The QR code for paying on a phone cannot be used without sight. You can instead open this checkout's link on your phone, or simply pay on this device.",
  "a11y.feedbackHeading": "Feedback and contact",
  "a11y.feedback":
    "If something in the checkout is hard to use, please tell the shop you are buying from, mentioning this page's address. The shop will pass it to us, and we aim to reply within 5 working days.",
  "a11y.enforcementHeading": "Enforcement",
  "a11y.enforcement":
    "If you are not satisfied with our answer, you can contact the market surveillance authority for accessibility in your country.",
  "a11y.prepared": "This statement was prepared on 21 November 2026 from our own testing.",
  "a11y.back": "Back to the checkout",

  // Page not found
  // Payment link page (/pay/{slug}): "link." keeps it out of the checkout form's "pay." messages
  "link.title": "Pay",
  "link.intro": "Pay {payee} directly from your bank account.",
  "link.amount": "Amount ({currency})",
  "link.amountRange": "From {min} to {max}",
  "link.fixedAmount": "Amount to pay",
  "link.optional": "{label} (optional)",
  "link.submit": "Continue to payment",
  "link.errorsHeading": "Please correct the following:",
  "link.error.amountFormat": "Enter the amount as a number, like 12.50.",
  "link.error.amountRange": "Enter an amount from {min} to {max}.",
  "link.error.fieldRequired": "Fill in {label}.",
  "link.error.fieldTooLong": "{label} can be at most {max} characters.",
  "link.ended.heading": "This payment link has ended",
  "link.ended.body": "It takes no more payments. If you still need to pay, ask {payee} for a new link.",
  "link.busy.heading": "Someone is paying right now",
  "link.busy.body":
    "The last payment this link takes is being paid at this moment. If that payment does not go through, you can pay here: try again in a few minutes.",
  "notFound.title": "Page not found",
  "notFound.body":
    "We could not find this page. If you followed a payment link, it may be mistyped or no longer valid. Ask the shop for a new link.",
  "notFound.link": "Go to the demo shop",
};

export type MessageId = keyof typeof en;
export type Messages = { readonly [K in MessageId]: string };

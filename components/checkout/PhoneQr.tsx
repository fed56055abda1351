import QRCode from "qrcode";
import { messages, type Locale } from "@/lib/i18n";

/**
 * A QR code that opens this checkout on the payer's phone, made on the server (no script, no
 * third party) and shown only on wide screens, where a phone is likely the better place to pay.
 * Inline SVG markup, not an `<img>` of a data URL: an SVG image is a document of its own to the
 * browser, made even while the panel is hidden on a phone (issue 16).
 */
export async function PhoneQr({ url, locale }: { url: string; locale: Locale }) {
  const t = messages(locale);
  let svg: string;
  try {
    svg = await QRCode.toString(url, {
      type: "svg",
      errorCorrectionLevel: "M",
      margin: 2,
      color: { dark: "#111827", light: "#ffffff" },
    });
  } catch {
    return null;
  }
  return (
    <aside className="card qr-panel" aria-labelledby="qr-heading">
      <h2 id="qr-heading">{t["qr.heading"]}</h2>
      {/* The library's markup: the code's squares as path data, never the text of the URL. */}
      <div className="qr-code" role="img" aria-label={t["qr.alt"]} dangerouslySetInnerHTML={{ __html: svg }} />
      <p className="hint">{t["qr.hint"]}</p>
      {/* The page's code notices the payment by itself (QrHandoff); without it, the payer asks. */}
      <noscript>
        <p className="hint">
          <a href={url}>{t["qr.reload"]}</a>
        </p>
      </noscript>
    </aside>
  );
}

import QRCode from "qrcode";
import { messages, type Locale } from "@/lib/i18n";

/**
 * A QR code that opens this checkout on the payer's phone, made on the server (no script, no
 * third party) and shown only on wide screens, where a phone is likely the better place to pay.
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
  const src = `data:image/svg+xml;base64,${Buffer.from(svg, "utf8").toString("base64")}`;
  return (
    <aside className="card qr-panel" aria-labelledby="qr-heading">
      <h2 id="qr-heading">{t["qr.heading"]}</h2>
      {/* eslint-disable-next-line @next/next/no-img-element -- an inline SVG data URL made on the server; nothing to optimise */}
      <img className="qr-code" src={src} alt={t["qr.alt"]} width={176} height={176} />
      <p className="hint">{t["qr.hint"]}</p>
    </aside>
  );
}

import QRCode from "qrcode";

/**
 * A link's address as a QR code, for a counter or a printed invoice: SVG scales to any print
 * size, PNG goes where SVG does not (a word processor, a chat). Quartile error correction, so a
 * code printed small or a little smudged still reads.
 */
const OPTIONS = { errorCorrectionLevel: "Q", margin: 4, color: { dark: "#000000", light: "#ffffff" } } as const;

export function qrSvg(url: string): Promise<string> {
  return QRCode.toString(url, { ...OPTIONS, type: "svg" });
}

export function qrPng(url: string): Promise<Buffer> {
  return QRCode.toBuffer(url, { ...OPTIONS, type: "png", width: 1024 });
}

// The framework's floor for a page (`npm run bench -- --pages`, issue 16): Next's own root layout
// and nothing of ours, no stylesheet, no font, no client component.
export const metadata = { title: "A bare Next page", description: "The framework's floor for Lighthouse." };

export default function RootLayout({ children }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}

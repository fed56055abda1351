import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: "Page not found" };

export default function NotFound() {
  return (
    <main className="page">
      <div className="card not-found">
        <h1>Page not found</h1>
        <p className="muted">
          We could not find this page. If you followed a payment link, it may be mistyped or no longer valid. Ask the
          shop for a new link.
        </p>
        <div className="actions" style={{ justifyContent: "center" }}>
          <Link className="btn btn-secondary" href="/">
            Go to the demo shop
          </Link>
        </div>
      </div>
    </main>
  );
}

import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: "Not allowed", robots: { index: false, follow: false } };

/** A signed-in staff member whose role may not open this page or do this (answered 403). */
export default function Forbidden() {
  return (
    <main className="page">
      <div className="card">
        <h1>Your role may not do this</h1>
        <p>Ask an admin of your back office if you need it.</p>
        <div className="actions">
          <Link className="btn btn-secondary" href="/backoffice">
            Back to the checkouts
          </Link>
        </div>
      </div>
    </main>
  );
}

/**
 * While the landing page asks the provider how the payment went (at most a second and a half):
 * the page's frame at once, without words, since the payer's language is not known yet here.
 */
export default function LandingLoading() {
  return (
    <main className="page" aria-busy="true">
      <div className="card stack" aria-hidden="true">
        <div className="skeleton" />
        <div className="skeleton" />
      </div>
    </main>
  );
}

export default function Page() {
  return (
    <main>
      <h1>A bare Next page</h1>
      <p>What a page costs a phone with nothing on it but the framework: React and Next&apos;s router.</p>
    </main>
  );
}

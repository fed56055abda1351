// @vitest-environment happy-dom
import { describe, expect, it } from "vitest";
import { serverHtml } from "@/components/testing/server-html";
import { pickMessages } from "@/lib/i18n";
import { AttemptPanel, type InFlightAttempt } from "./AttemptPanel";

/** The panel as the server sends it when the payer comes back from the bank: what shows before (or without) its code. */
function panel(statusGroup: InFlightAttempt["statusGroup"], timeUp = false) {
  const doc = serverHtml(
    <AttemptPanel
      checkoutId="co_test"
      amountText="€24.90"
      attempt={{ method: "bank", bankName: "Swedbank", statusGroup }}
      statusHref="/checkout/co_test/return"
      locale="en"
      postsItself
      refused={null}
      timeUp={timeUp}
      messages={pickMessages("en", ["attempt.", "payError.", "apiError.", "common.tryAgain"])}
      onOver={() => {}}
    />,
  );
  return {
    buttons: [...doc.querySelectorAll("button")].map((b) => b.textContent),
    text: doc.body.textContent ?? "",
  };
}

describe("the payment in flight, back from the bank", () => {
  it("a payment not yet approved at the bank can be stopped to choose another bank", () => {
    expect(panel("started").buttons).toEqual(["Choose another bank"]);
  });

  it("a payment the bank has accepted cannot: the payer is shown its status, not a way to replace it", () => {
    const shown = panel("pending");
    expect(shown.text).toContain("Status: your bank is processing the payment.");
    expect(shown.buttons).toEqual([]);
    expect(shown.text).not.toContain("This stops the unfinished payment");
  });

  it("after the checkout's time a payment not yet approved is still followed, but nothing is offered to replace it", () => {
    const shown = panel("started", true);
    expect(shown.text).toContain("Status: waiting for you to approve the payment at your bank.");
    expect(shown.buttons).toEqual([]);
    expect(shown.text).not.toContain("This stops the unfinished payment");
  });
});

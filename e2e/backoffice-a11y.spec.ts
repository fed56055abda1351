import { expect, test, type Page } from "@playwright/test";
import { createCheckout, decideAtBank, payWithBank, signInToBackoffice } from "./journey";

/*
 * The back office with a keyboard and a screen reader: after an action, focus is never dropped on
 * the page's body (where the next Tab starts again at the top), and what changed is announced.
 */

/** What the list's polite status says once the list has loaded. */
const listStatus = (page: Page, text: string) => page.getByRole("status").filter({ hasText: text });

test("filters and pages of the list keep the focus on the control pressed, or on the results' heading", async ({
  page,
  request,
}) => {
  // 26 checkouts of their own: one more than a page.
  const prefix = `focus-${Date.now()}`;
  for (let i = 0; i < 26; i++) await createCheckout(request, { reference: `${prefix}-${i}` });
  await signInToBackoffice(page);
  const heading = page.getByRole("heading", { name: "Checkouts", exact: true, level: 2 });

  // Enter in the search: the list changes, the caret stays in the field.
  const search = page.getByLabel("Reference or checkout id", { exact: true });
  await search.fill(prefix);
  await search.press("Enter");
  await expect(page).toHaveURL(new RegExp(`q=${prefix}`));
  await expect(listStatus(page, "25 checkouts on page 1")).toBeAttached();
  await expect(search).toBeFocused();

  // Apply filters by keyboard: focus stays on the button.
  await page.getByLabel("Status", { exact: true }).selectOption("open");
  const apply = page.getByRole("button", { name: "Apply filters" });
  await apply.focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/status=open/);
  await expect(apply).toBeFocused();

  // Next page: the last one has no "Next page"; focus goes to the heading of the new page.
  await page.getByRole("link", { name: "Next page" }).focus();
  await page.keyboard.press("Enter");
  await expect(listStatus(page, "1 checkout on page 2")).toBeAttached();
  await expect(page.getByRole("link", { name: "Next page" })).toHaveCount(0);
  await expect(heading).toBeFocused();

  await page.getByRole("link", { name: "Previous page" }).focus();
  await page.keyboard.press("Enter");
  await expect(listStatus(page, "25 checkouts on page 1")).toBeAttached();
  await expect(page.getByRole("link", { name: "Previous page" })).toHaveCount(0);
  await expect(heading).toBeFocused();

  // Clear filters in the form goes away with the filters; the fields are emptied in place.
  await page.getByRole("search").getByRole("link", { name: "Clear filters" }).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/backoffice$/);
  await expect(page.getByRole("link", { name: "Clear filters" })).toHaveCount(0);
  await expect(heading).toBeFocused();
  await expect(search).toHaveValue("");
  await expect(page.getByLabel("Status", { exact: true })).toHaveValue("");

  // The same link in the message of an empty list.
  await search.fill(`${prefix}-none`);
  await search.press("Enter");
  await expect(page.getByText("No checkouts match these filters.")).toBeVisible();
  await expect(search).toBeFocused();
  await page.getByRole("region", { name: "Checkouts" }).getByRole("link", { name: "Clear filters" }).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/backoffice$/);
  await expect(heading).toBeFocused();

  // Back puts the fields back to what the address says.
  await page.goBack();
  await expect(search).toHaveValue(`${prefix}-none`);
});

test("refunding all that is left moves focus to 'Nothing is left to refund' that replaces the form", async ({
  page,
  request,
}) => {
  const reference = `refund-all-${Date.now()}`;
  const checkoutId = await createCheckout(request, { reference });
  await page.goto(`/checkout/${checkoutId}?lang=en`);
  await payWithBank(page);
  await decideAtBank(page, "Approve");
  await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible();

  await signInToBackoffice(page);
  await page.goto(`/backoffice/checkouts/${checkoutId}`);
  await expect(page.getByLabel("Amount", { exact: true })).toHaveValue("24.90");
  await page.getByRole("button", { name: "Refund" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status", { name: "Refund result" })).toHaveText("Refund of €24.90 started");
  await expect(page.getByText("Nothing is left to refund.")).toBeFocused();
});

test("the list's title names the back office, as its other pages' do", async ({ page }) => {
  await signInToBackoffice(page);
  await expect(page).toHaveTitle("Checkouts · Back office");
});

/** What the back-office forms' server actions answer (plain data: it crosses to the browser). */

export interface LoginState {
  error: string | null;
}

export type RefundState =
  | { ok: null }
  | { ok: true; message: string }
  | { ok: false; error: string; field?: "amount" | "reason"; values: { amount: string; reason: string } };

/** Cancel checkout and Send again: a sentence for the page's live region either way. */
export type ActionResult = { ok: true; message: string } | { ok: false; error: string };

export const INITIAL_LOGIN_STATE: LoginState = { error: null };
export const INITIAL_REFUND_STATE: RefundState = { ok: null };

import { PisError } from "./errors";
import { authStart, token, tokenContent, type AuthStart, type Token, type TokenContent } from "./schemas";
import { bearer, type Transport } from "./transport";
import type { VersionProfile } from "./versions";

/** Scopes known from the JVM client; kept open for new ones. Balances and transactions imply details. */
export type AuthScope =
  | "payments"
  | "payments_pos"
  | "accounts_basic"
  | "accounts_details"
  | "accounts_balances"
  | "accounts_transactions"
  | (string & {});

export interface StartAuthInput {
  scopes: readonly AuthScope[];
  /** Our id for this linking; the provider echoes it back as `requestId` on the redirect. */
  requestId: string;
  /** Where the payer returns with `?requestId=…&code=…&status=success` (or `status=failure`). */
  redirectUrl: string;
  /** v0.3 only. */
  webhookUrl?: string;
  bankId?: string;
  redirectPreferred?: boolean;
  lang?: string;
  email?: string;
  /** Link a card instead of a bank account. */
  cardMethod?: boolean;
}

export function authApi(request: Transport, profile: VersionProfile) {
  return {
    /** POST /auth: starts account linking; send the payer to `authorizationLink` (valid 48 h, once). */
    start: (input: StartAuthInput): Promise<AuthStart> => {
      if (input.webhookUrl !== undefined && !profile.authWebhookUrl) {
        return Promise.reject(
          new PisError({
            kind: "unsupported",
            operation: "startAuth",
            description: `Webhook-URL on /auth needs API v0.3, not ${profile.version}`,
          }),
        );
      }
      return request({
        operation: "startAuth",
        method: "POST",
        path: "/auth",
        // Repeated keys (scopes=a&scopes=b), as the JVM client sends them.
        query: {
          bankId: input.bankId,
          redirectPreferred: input.redirectPreferred,
          scopes: input.scopes,
          lang: input.lang,
        },
        headers: { "Request-Id": input.requestId, "Redirect-URL": input.redirectUrl, "Webhook-URL": input.webhookUrl },
        body: {
          ...(input.email !== undefined && { email: input.email }),
          ...(input.cardMethod && { cardMethod: {} }),
        },
        schema: authStart,
      });
    },

    /** POST /auth/token with the `code` from the redirect: the linked account's tokens. */
    exchangeCode: (code: string): Promise<Token> =>
      request({
        operation: "receiveToken",
        method: "POST",
        path: "/auth/token",
        body: { grantType: "authorizationCode", code },
        schema: token,
      }),

    /** POST /auth/token with a refresh token: new tokens (use the returned refresh token from then on). */
    refresh: (refreshToken: string): Promise<Token> =>
      request({
        operation: "receiveToken",
        method: "POST",
        path: "/auth/token",
        body: { grantType: "refreshToken", refreshToken },
        schema: token,
      }),

    /** GET /auth/token/content: which bank an access token belongs to and whether it still holds. */
    tokenContent: (accessToken: string): Promise<TokenContent> =>
      request({
        operation: "receiveTokenContent",
        method: "GET",
        path: "/auth/token/content",
        headers: { Authorization: bearer(accessToken) },
        schema: tokenContent,
      }),
  };
}

export { BankCheckout } from "./client.ts";
export { BankCheckoutError, type ClientErrorCode, type ErrorCode, type FieldError } from "./errors.ts";
export type { CallOptions, ClientOptions } from "./http.ts";
export {
  NOTIFICATION_MAX_AGE_MS,
  NOTIFICATION_MAX_FUTURE_MS,
  NotificationVerificationError,
  verifyNotification,
  type HeadersLike,
  type NotificationRefusal,
  type VerifyOptions,
} from "./notifications.ts";
export type * from "./types.ts";
export type { components, paths, webhooks } from "./schema.ts";

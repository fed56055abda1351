export { BankCheckout } from "./client.js";
export { BankCheckoutError, type ClientErrorCode, type ErrorCode, type FieldError } from "./errors.js";
export type { CallOptions, ClientOptions } from "./http.js";
export {
  NOTIFICATION_MAX_AGE_MS,
  NOTIFICATION_MAX_FUTURE_MS,
  NotificationVerificationError,
  verifyNotification,
  type HeadersLike,
  type NotificationRefusal,
  type VerifyOptions,
} from "./notifications.js";
export type * from "./types.js";
export type { components, paths, webhooks } from "./schema.js";

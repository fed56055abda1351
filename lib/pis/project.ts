import { paymentMethodList, projectSettings, type ProjectSettings } from "./schemas";
import type { Transport } from "./transport";

/** A payment method of the project; "bank" and "card" are the ones known today. */
export type PaymentMethod = "bank" | "card" | (string & {});

export function projectApi(request: Transport) {
  return {
    /** GET /auth/paymentMethods: what the project may take. Card and hybrid payments need "card". */
    paymentMethods: async (): Promise<PaymentMethod[]> =>
      (
        await request({
          operation: "getPaymentMethods",
          method: "GET",
          path: "/auth/paymentMethods",
          schema: paymentMethodList,
        })
      ).data,

    /** GET /auth/project/settings (not /auth/projectSettings, a path no official client uses). */
    settings: (): Promise<ProjectSettings> =>
      request({
        operation: "getProjectSettings",
        method: "GET",
        path: "/auth/project/settings",
        schema: projectSettings,
      }),
  };
}

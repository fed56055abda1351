import { countryCodeList } from "./schemas";
import type { Transport } from "./transport";

export function generalApi(request: Transport) {
  return {
    /** GET /auth/countries: countries in which the project has banks (ISO 3166 alpha-2). */
    countries: async (): Promise<string[]> =>
      (await request({ operation: "getCountries", method: "GET", path: "/auth/countries", schema: countryCodeList }))
        .data,
  };
}

import { PisError, type Bank } from "../pis";
import { cachedPerClient } from "./cache";
import type { CheckoutContext } from "./context";
import { CheckoutError } from "./errors";
import { tell } from "./observer";

const TEN_MINUTES = 10 * 60 * 1000;

export interface ProjectInfo {
  methods: { bank: boolean; card: boolean; hybrid: boolean };
  isSandbox: boolean;
  redirectPreferred: boolean;
  forceRedirectToBankMode: string | null;
  /** Methods whose payments may be refunded, and for how many days after payment. */
  refunds: { allowedFor: string[]; bankDayLimit: number | null; cardDayLimit: number | null };
  /** Account-linking scopes the project may ask for (`payments` makes saved bank accounts possible). */
  scopes: string[];
}

const loadProject = cachedPerClient(TEN_MINUTES, async (ctx, _: "project"): Promise<ProjectInfo> => {
  const [methods, settings] = await Promise.all([ctx.pis.project.paymentMethods(), ctx.pis.project.settings()]);
  const card = methods.includes("card");
  const bank = methods.includes("bank");
  return {
    methods: { bank, card, hybrid: bank && card },
    isSandbox: settings.isSandbox,
    redirectPreferred: settings.redirectPreferred ?? false,
    forceRedirectToBankMode: settings.forceRedirectToBankMode ?? null,
    refunds: {
      allowedFor: settings.allowedRefundsFor ?? [],
      bankDayLimit: settings.bankRefundDayLimit ?? null,
      cardDayLimit: settings.cardRefundDayLimit ?? null,
    },
    scopes: settings.scopes ?? [],
  };
});

/** The project's settings, or null while the provider cannot be asked (an outage, nothing cached). */
async function knownProject(ctx: CheckoutContext): Promise<ProjectInfo | null> {
  // Before v0.3 the API has no settings to ask: bank payments are all there is.
  if (!ctx.pis.profile.projectSettings) return BANK_ONLY;
  return loadProject(ctx, "project").catch((err: unknown) => {
    if (err instanceof PisError) return null;
    throw err;
  });
}

/**
 * What the provider project allows, for a decision that must not be guessed (a refund, saving an
 * account, a card payment): while the provider cannot be asked, the answer is "try again", never
 * a permanent "not enabled for this shop".
 */
export async function projectInfo(ctx: CheckoutContext): Promise<ProjectInfo> {
  const project = await knownProject(ctx);
  if (!project) throw new CheckoutError("provider_error", { detail: "We could not reach the payment service." });
  return project;
}

/** Bank payments only, and nothing else the settings allow. */
const BANK_ONLY: ProjectInfo = {
  methods: { bank: true, card: false, hybrid: false },
  isSandbox: false,
  redirectPreferred: false,
  forceRedirectToBankMode: null,
  refunds: { allowedFor: [], bankDayLimit: null, cardDayLimit: null },
  scopes: [],
};

/**
 * For the payer's page and a bank payment: a provider outage degrades to bank payments only, and
 * the payment call itself then reports the outage.
 */
export async function projectInfoOrBankOnly(ctx: CheckoutContext): Promise<ProjectInfo> {
  return (await knownProject(ctx)) ?? BANK_ONLY;
}

/** One bank by id, or null when the provider does not know it. */
export const findBank = cachedPerClient(TEN_MINUTES, async (ctx, bankId: string): Promise<Bank | null> => {
  try {
    const bank = await ctx.pis.banks.get(bankId);
    tell((o) => o.banksListed([bank.id]));
    return bank;
  } catch (err) {
    if (err instanceof PisError && (err.httpStatus === 404 || err.httpStatus === 400)) return null;
    throw err;
  }
});

const loadCountries = cachedPerClient(TEN_MINUTES, (ctx, _: "countries") => ctx.pis.general.countries());

/** The countries the provider serves, for the country switch. */
export async function providerCountries(ctx: CheckoutContext): Promise<string[]> {
  try {
    return await loadCountries(ctx, "countries");
  } catch (err) {
    if (!(err instanceof PisError)) throw err;
    return ["LT", "LV", "EE"];
  }
}

/**
 * Whether to ask the provider to skip its own pages and go straight to the bank (ADR 8): always
 * when the project forces it; when the project prefers it, only for banks that offer a redirect
 * flow for payments; otherwise the provider's hosted flow, which works for every bank.
 */
export function redirectPreferredFor(project: ProjectInfo, bank: Bank): boolean {
  if (project.forceRedirectToBankMode === "hard") return true;
  return project.redirectPreferred && (bank.scaApproaches?.PIS ?? []).includes("REDIRECT");
}

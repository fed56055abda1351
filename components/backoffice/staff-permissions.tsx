"use client";

import { createContext, useContext, type ReactNode } from "react";
import type { StaffAction } from "@/lib/staff/roles";

const Allowed = createContext<readonly StaffAction[]>([]);

/**
 * What the signed-in person's role may do, for the buttons a page shows. Only a courtesy: every
 * action checks the role again on the server (requireStaff), whatever the page showed.
 */
export function StaffPermissions({ allowed, children }: { allowed: readonly StaffAction[]; children: ReactNode }) {
  return <Allowed.Provider value={allowed}>{children}</Allowed.Provider>;
}

export function useMay(action: StaffAction): boolean {
  return useContext(Allowed).includes(action);
}

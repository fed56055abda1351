"use client";

import { createContext, useContext, type ReactNode } from "react";
import type { StaffAction } from "@/lib/staff/roles";

const Allowed = createContext<{ allowed: readonly StaffAction[]; selfId: string }>({ allowed: [], selfId: "" });

/**
 * What the signed-in person's role may do, for the buttons a page shows. Only a courtesy: every
 * action checks the role again on the server (requireStaff), whatever the page showed.
 */
export function StaffPermissions({
  allowed,
  selfId,
  children,
}: {
  allowed: readonly StaffAction[];
  selfId: string;
  children: ReactNode;
}) {
  return <Allowed.Provider value={{ allowed, selfId }}>{children}</Allowed.Provider>;
}

export function useMay(action: StaffAction): boolean {
  return useContext(Allowed).allowed.includes(action);
}

/** The signed-in person's id: to tell their own refund requests, which they may not approve. */
export function useSelfId(): string {
  return useContext(Allowed).selfId;
}

/**
 * The payer's last-used bank per country, remembered in this browser only (localStorage); never
 * sent anywhere. Reading goes through useSyncExternalStore so that the server-rendered list (which
 * cannot know it) hydrates first and the remembered bank moves to the top right after.
 */
import { useSyncExternalStore } from "react";

const key = (country: string) => `lastBank:${country}`;
const listeners = new Set<() => void>();

export function rememberBank(country: string, bankId: string): void {
  try {
    window.localStorage.setItem(key(country), bankId);
  } catch {
    // Storage may be unavailable (private mode); remembering is only a convenience.
  }
  for (const l of listeners) l();
}

function read(country: string): string | null {
  try {
    return window.localStorage.getItem(key(country));
  } catch {
    return null;
  }
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  window.addEventListener("storage", listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", listener);
  };
}

export function useLastUsedBank(country: string): string | null {
  return useSyncExternalStore(
    subscribe,
    () => read(country),
    () => null,
  );
}

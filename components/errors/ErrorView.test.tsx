// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ERROR_TEXT } from "@/lib/i18n/error-text";
import { ErrorView } from "./ErrorView";

afterEach(() => {
  cleanup();
  document.documentElement.lang = "";
});

describe("the error page", () => {
  it("speaks the page's language, says no money moved, and offers Try again and Go back", () => {
    document.documentElement.lang = "lt";
    const retry = vi.fn();
    render(<ErrorView onRetry={retry} />);
    expect(screen.getByRole("heading", { level: 1, name: ERROR_TEXT.lt.title })).toBe(document.activeElement);
    expect(screen.getByRole("alert")).toHaveProperty(
      "textContent",
      expect.stringContaining("mokėjimas nebuvo atliktas"),
    );
    fireEvent.click(screen.getByRole("button", { name: ERROR_TEXT.lt.retry }));
    expect(retry).toHaveBeenCalledOnce();
    expect(screen.getByRole("button", { name: ERROR_TEXT.lt.back })).toBeTruthy();
  });

  it("falls back to English for a language it does not have", () => {
    document.documentElement.lang = "fr";
    render(<ErrorView onRetry={() => {}} />);
    expect(screen.getByRole("heading", { level: 1, name: "Something went wrong" })).toBeTruthy();
  });

  it("has every word in each of the four languages", () => {
    for (const text of Object.values(ERROR_TEXT))
      for (const word of Object.values(text)) expect(word.trim()).not.toBe("");
    expect(Object.keys(ERROR_TEXT).sort()).toEqual(["en", "et", "lt", "lv"]);
  });
});

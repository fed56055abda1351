// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { renderToString } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ERROR_TEXT } from "@/lib/i18n/error-text";
import { AWAY_RETRY_MS, ErrorView } from "./ErrorView";

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

  it("when the database did not answer, says so and tries again by itself once, after the time it names", () => {
    vi.useFakeTimers();
    try {
      document.documentElement.lang = "et";
      const retry = vi.fn();
      render(<ErrorView onRetry={retry} away />);
      expect(screen.getByRole("heading", { level: 1, name: ERROR_TEXT.et.awayTitle })).toBe(document.activeElement);
      expect(screen.getByRole("alert").textContent).toContain(ERROR_TEXT.et.awayRetry);
      expect(ERROR_TEXT.et.awayRetry).toContain(String(AWAY_RETRY_MS / 1000));
      vi.advanceTimersByTime(AWAY_RETRY_MS - 1);
      expect(retry).not.toHaveBeenCalled();
      vi.advanceTimersByTime(1);
      expect(retry).toHaveBeenCalledOnce();
      vi.advanceTimersByTime(AWAY_RETRY_MS * 3);
      expect(retry).toHaveBeenCalledOnce();
    } finally {
      vi.useRealTimers();
    }
  });

  it("does not try again by itself after an error of the page's own", () => {
    vi.useFakeTimers();
    try {
      const retry = vi.fn();
      render(<ErrorView onRetry={retry} />);
      vi.advanceTimersByTime(AWAY_RETRY_MS * 3);
      expect(retry).not.toHaveBeenCalled();
      expect(screen.queryByText(ERROR_TEXT.en.awayRetry)).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it("falls back to English for a language it does not have", () => {
    document.documentElement.lang = "fr";
    render(<ErrorView onRetry={() => {}} />);
    expect(screen.getByRole("heading", { level: 1, name: "Something went wrong" })).toBeTruthy();
  });

  it("sent by the server while its database is away: its language, Try again as a link, no promise before the code runs", () => {
    const html = renderToString(<ErrorView away lang="lv" retryHref="/checkout/chk_1?lang=lv" onRetry={() => {}} />);
    expect(html).toContain(ERROR_TEXT.lv.awayTitle);
    expect(html).toMatch(
      new RegExp(`<a class="btn btn-primary" href="/checkout/chk_1\\?lang=lv">${ERROR_TEXT.lv.retry}</a>`),
    );
    expect(html).not.toContain(ERROR_TEXT.lv.awayRetry);
    render(<ErrorView away lang="lv" retryHref="/checkout/chk_1" onRetry={() => {}} />);
    expect(screen.getByRole("alert").textContent).toContain(ERROR_TEXT.lv.awayRetry);
    expect(screen.getByRole("link", { name: ERROR_TEXT.lv.retry }).getAttribute("href")).toBe("/checkout/chk_1");
  });

  it("has every word in each of the four languages", () => {
    for (const text of Object.values(ERROR_TEXT))
      for (const word of Object.values(text)) expect(word.trim()).not.toBe("");
    expect(Object.keys(ERROR_TEXT).sort()).toEqual(["en", "et", "lt", "lv"]);
  });
});

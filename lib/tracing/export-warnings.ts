import { ROOT_CONTEXT, context } from "@opentelemetry/api";
import type { ReadableSpan, SpanExporter } from "@opentelemetry/sdk-trace-base";

type ExportResult = Parameters<Parameters<SpanExporter["export"]>[1]>[0];

/** One warning a minute at most: a collector that is down for an hour writes 60 lines, not one per export. */
export const WARN_EVERY_MS = 60_000;

// ExportResultCode.SUCCESS (@opentelemetry/core), a dependency of the SDK and not of ours.
const SUCCESS = 0;

/**
 * An exporter that says when spans could not be sent, at most once per `everyMs`, with how many
 * exports and spans were lost since the last line, and once when the endpoint takes them again.
 * The SDK's own reports go to its diagnostic logger, silent unless OTEL_LOG_LEVEL is set; without
 * this an endpoint that is down would go unnoticed, and with OTEL_LOG_LEVEL it says so per export.
 * Nothing here waits or retries: the exporter underneath gives up within its timeout, the batch
 * processor drops what its queue cannot hold, and requests never wait for either.
 */
export class WarningExporter implements SpanExporter {
  private lastWarnAt = -Infinity;
  private failedExports = 0;
  private lostSpans = 0;
  private failing = false;

  constructor(
    private readonly inner: SpanExporter,
    private readonly where: string,
    private readonly warnInContext: (line: string) => void,
    private readonly opts: { everyMs?: number; now?: () => number } = {},
  ) {}

  /** Outside any span: the export runs in the context of whichever request started the batch's timer, whose trace this line is not part of. */
  private warn(line: string): void {
    context.with(ROOT_CONTEXT, () => this.warnInContext(line));
  }

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.inner.export(spans, (result) => {
      try {
        if (result.code === SUCCESS) this.succeeded();
        else this.failed(spans.length, result.error);
      } finally {
        done(result);
      }
    });
  }

  private succeeded(): void {
    if (!this.failing) return;
    this.failing = false;
    this.warn(`traces: ${this.where} takes spans again`);
    this.failedExports = this.lostSpans = 0;
    this.lastWarnAt = -Infinity;
  }

  private failed(spans: number, error: Error | undefined): void {
    this.failing = true;
    this.failedExports += 1;
    this.lostSpans += spans;
    const now = (this.opts.now ?? Date.now)();
    if (now - this.lastWarnAt < (this.opts.everyMs ?? WARN_EVERY_MS)) return;
    this.lastWarnAt = now;
    this.warn(
      `traces: ${this.where} did not take ${this.failedExports} export(s), ${this.lostSpans} span(s) lost` +
        ` (${error?.message ?? "no reason given"}); the app serves as before, next word on this in a minute at the earliest`,
    );
    this.failedExports = this.lostSpans = 0;
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

import { CHECKOUT_STATUSES, type CheckoutStatus } from "@/lib/checkout/types";
import styles from "./backoffice.module.css";

/*
 * Every fill reaches at least 3:1 on white (WCAG 1.4.11) and has its own pattern, so a status can
 * be told apart without seeing colour; the legend and the tables say it in words.
 */
interface Look {
  colour: string;
  pattern: "solid" | "diagonal" | "dots" | "horizontal" | "cross" | "vertical";
}

const LOOKS: Record<CheckoutStatus, Look> = {
  paid: { colour: "#166534", pattern: "solid" }, // 7.1:1
  failed: { colour: "#b91c1c", pattern: "diagonal" }, // 6.5:1
  processing: { colour: "#1d4ed8", pattern: "dots" }, // 6.7:1
  open: { colour: "#4b5563", pattern: "horizontal" }, // 7.5:1
  expired: { colour: "#92400e", pattern: "cross" }, // 6.8:1
  cancelled: { colour: "#6d28d9", pattern: "vertical" }, // 7.1:1
};

export const patternId = (status: CheckoutStatus) => `bo-fill-${status}`;

export function PatternDefs() {
  return (
    <defs>
      {CHECKOUT_STATUSES.map((status) => {
        const { colour, pattern } = LOOKS[status];
        return (
          <pattern key={status} id={patternId(status)} width="6" height="6" patternUnits="userSpaceOnUse">
            <rect width="6" height="6" fill={colour} />
            {pattern === "diagonal" && <path d="M-1,1 l2,-2 M0,6 l6,-6 M5,7 l2,-2" stroke="#fff" strokeWidth="1.2" />}
            {pattern === "dots" && <circle cx="3" cy="3" r="1.1" fill="#fff" />}
            {pattern === "horizontal" && <path d="M0,3 h6" stroke="#fff" strokeWidth="1.2" />}
            {pattern === "vertical" && <path d="M3,0 v6" stroke="#fff" strokeWidth="1.2" />}
            {pattern === "cross" && <path d="M0,0 l6,6 M6,0 l-6,6" stroke="#fff" strokeWidth="1" />}
          </pattern>
        );
      })}
    </defs>
  );
}

export function Swatch({ status }: { status: CheckoutStatus }) {
  return (
    <svg className={styles.swatch} viewBox="0 0 18 14" aria-hidden="true" focusable="false">
      <rect width="18" height="14" fill={`url(#${patternId(status)})`} />
    </svg>
  );
}

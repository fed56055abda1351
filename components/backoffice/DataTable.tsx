import type { ReactNode } from "react";
import { ScrollArea } from "./ScrollArea";
import styles from "./backoffice.module.css";

interface DataTableProps {
  caption: string;
  head: string[];
  rows: { key: string; cells: ReactNode[] }[];
  /** Shown instead of the table when there are no rows. */
  empty: string;
  /** Indexes of right-aligned numeric columns. */
  numeric?: number[];
}

/** A captioned table with column headers; scrolls sideways on a narrow screen, reachable by keyboard. */
export function DataTable({ caption, head, rows, empty, numeric = [] }: DataTableProps) {
  if (rows.length === 0) return <p className={styles.empty}>{empty}</p>;
  const align = (i: number) => (numeric.includes(i) ? styles.num : undefined);
  return (
    <ScrollArea label={caption}>
      <table className={styles.table}>
        <caption>{caption}</caption>
        <thead>
          <tr>
            {head.map((h, i) => (
              <th key={h} scope="col" className={align(i)}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key}>
              {row.cells.map((cell, i) => (
                <td key={i} className={align(i)}>
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollArea>
  );
}

/** What each benchmark hands the report: plain data, printed to the terminal and written as markdown. */
import type { Goal } from "../goals/goal.js";

export interface Table {
  /** Shown above the table. */
  caption?: string;
  columns: string[];
  rows: string[][];
  /** Columns aligned right (numbers); the first column is always left. */
  numeric?: boolean;
  /** One line shown below the table (a verdict), kept in the README's copy. */
  footnote?: string;
}

export interface Section {
  id: string;
  title: string;
  /** One paragraph saying what was run. */
  setup: string;
  tables: Table[];
  /** Definitions and caveats, one bullet each. */
  notes: string[];
  /** The goals this section measures, gathered into the report's goals table. */
  goals?: Goal[];
  /** How the goals table names this section (its title by default). */
  goalsLabel?: string;
}

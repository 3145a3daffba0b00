/** What each benchmark hands the report: plain data, printed to the terminal and written as markdown. */

export interface Table {
  /** Shown above the table. */
  caption?: string;
  columns: string[];
  rows: string[][];
  /** Columns aligned right (numbers); the first column is always left. */
  numeric?: boolean;
}

export interface Section {
  id: string;
  title: string;
  /** One paragraph saying what was run. */
  setup: string;
  tables: Table[];
  /** Definitions and caveats, one bullet each. */
  notes: string[];
}

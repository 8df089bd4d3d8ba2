/** Rows of cells as left-aligned columns, two spaces apart, each line indented by `indent`. */
export function formatTable(rows: readonly (readonly string[])[], indent = '  '): string {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, cell.length);
    });
  }
  return rows
    .map(
      (row) =>
        `${indent}${row.map((cell, i) => (i < row.length - 1 ? cell.padEnd(widths[i]!) : cell)).join('  ')}`,
    )
    .join('\n');
}

/** Writes rows to stdout as formatTable's columns, unindented, with no trailing spaces on a line. */
export function printTable(rows: readonly (readonly string[])[]): void {
  for (const line of formatTable(rows, '').split('\n')) process.stdout.write(`${line.trimEnd()}\n`);
}

// Figures as bench/delivery.ts prints them: aligned columns, and '-' for what was not measured.

/** The first column left-aligned (names), the others right-aligned (figures). */
export function printTable(header: string[], lines: string[][]): void {
  const widths = header.map((_, column) => Math.max(...[header, ...lines].map((line) => line[column]!.length)));
  const format = (line: string[]) =>
    line.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('   ');
  console.log(format(header));
  for (const line of lines) console.log(format(line));
}

export const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '-');
export const percent = (value: number) => (Number.isFinite(value) ? `${Math.round(value * 100)}%` : '-');
export const verdict = (met: boolean) => (met ? 'met' : 'MISSED');

// A raw SQL statement with its values, made by one function: its parameter numbers ($1, $2...)
// are filled in where the text is written, never in another file. pg's query() takes it as is;
// Prisma's raw queries take its text and its values spread.
export interface Statement {
  text: string;
  values: unknown[];
}

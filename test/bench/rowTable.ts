// What the row builders of the bench table need from it (the Table of ./run.ts).
export interface RowTable {
  add(
    budget: string,
    where: string,
    unit: string,
    values: readonly number[],
    limit: number | undefined,
    opts?: { ok?: boolean; limitText?: string; note?: string },
  ): void;
  missing(budget: string, where: string, why: string): void;
}

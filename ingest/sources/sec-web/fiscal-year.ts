/**
 * The U.S. federal fiscal year of a date: it starts on October 1, so FY2024 ran from 2023-10-01 to
 * 2024-09-30. The whistleblower program reports its awards by this year, not the calendar year.
 */
export function federalFiscalYear(isoDate: string): number {
  const year = Number(isoDate.slice(0, 4));
  const month = Number(isoDate.slice(5, 7));
  return month >= 10 ? year + 1 : year;
}

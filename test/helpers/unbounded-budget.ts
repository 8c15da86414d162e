/**
 * A time budget for a test that expects success: an hour, longer than any test's own timeout (process tests have
 * 240 s), so the product's deadline can never fire first on a loaded machine, and small enough that the grace
 * periods the product adds to it stay under Node's timer limit (2^31 - 1 ms; a larger delay fires at once). A
 * shorter budget belongs only in a test that proves the budget fires, against a fixture that never answers.
 */
export const UNBOUNDED_BUDGET_MS = 60 * 60 * 1000;

/**
 * The service settings that make its wall-clock budgets unable to fire in a test that expects success: the crawl
 * budget (with the job lease config requires to be longer than it plus the kill grace), a batch item's budget, the
 * CSS parse time of a crawl and the wait for a palette's first build.
 */
export const UNBOUNDED_BUDGETS_ENV: Readonly<Record<string, string>> = {
  BRANDBASE_CRAWL_TIMEOUT_MS: String(UNBOUNDED_BUDGET_MS),
  BRANDBASE_JOB_LEASE_MS: String(2 * UNBOUNDED_BUDGET_MS),
  BRANDBASE_BATCH_ITEM_TIMEOUT_MS: String(UNBOUNDED_BUDGET_MS),
  BRANDBASE_CSS_PARSE_TIME_MS: String(UNBOUNDED_BUDGET_MS),
  // A palette's first build draws SVG logos in the render pool, whose first worker can take seconds to start under load.
  BRANDBASE_PALETTE_BUDGET_MS: String(UNBOUNDED_BUDGET_MS),
};

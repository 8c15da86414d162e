/**
 * BRANDBASE_GRAPHQL_MAX_COST and BRANDBASE_GRAPHQL_COST_PER_MINUTE (docs/configuration.md, docs/webhooks.md#query-cost):
 * a minute's allowance smaller than one request's budget would refuse the costliest requests forever, so it is refused.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.js';

describe('the GraphQL cost settings', () => {
  it('default to 50,000 per request and 500,000 per organization and minute', () => {
    expect(loadConfig({}).graphql).toEqual({ maxCost: 50_000, costPerMinute: 500_000 });
    expect(loadConfig({ BRANDBASE_GRAPHQL_MAX_COST: '1000', BRANDBASE_GRAPHQL_COST_PER_MINUTE: '1000' }).graphql).toEqual({ maxCost: 1000, costPerMinute: 1000 });
    expect(loadConfig({ BRANDBASE_GRAPHQL_COST_PER_MINUTE: '0' }).graphql.costPerMinute).toBe(0);
  });

  it('refuse a cost per minute below the cost of one request, and a budget of 0', () => {
    const refuse = (env: Record<string, string>): void => void loadConfig(env);
    expect(() => refuse({ BRANDBASE_GRAPHQL_COST_PER_MINUTE: '49999' })).toThrow(ConfigError);
    expect(() => refuse({ BRANDBASE_GRAPHQL_COST_PER_MINUTE: '49999' })).toThrow(/BRANDBASE_GRAPHQL_COST_PER_MINUTE must be 0 or at least BRANDBASE_GRAPHQL_MAX_COST \(50000\)/);
    expect(() => refuse({ BRANDBASE_GRAPHQL_MAX_COST: '0' })).toThrow(/BRANDBASE_GRAPHQL_MAX_COST/);
  });
});

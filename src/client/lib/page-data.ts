import type { QueryClient } from '@tanstack/react-query';
import { PAGE_DATA_ELEMENT_ID, PAGE_QUERIES, type PageQuery } from '#shared/page-data.ts';
import type { z } from '#shared/validation.ts';
import { afterFirstPaint } from './first-paint.ts';
import { pageBlock } from './page-block.ts';

/** The contract of each query a page may carry, loaded on first use (as the query loads it). */
export type PageQueryContracts = Record<PageQuery['query'], () => Promise<z.ZodType>>;

function isPageQuery(value: unknown): value is PageQuery {
  if (typeof value !== 'object' || value === null) return false;
  const { query, key } = value as Record<string, unknown>;
  return (PAGE_QUERIES as readonly unknown[]).includes(query) && Array.isArray(key);
}

/**
 * The answers the server put in the page it sent (decision 8): what the screen at its address
 * would otherwise ask the API for first. None when the page carries none or something unreadable.
 */
export function pageQueriesFrom(page: Document): PageQuery[] {
  const value = pageBlock(page, PAGE_DATA_ELEMENT_ID);
  return Array.isArray(value) ? value.filter(isPageQuery) : [];
}

/**
 * Before the first render: each answer the page carries goes into the cache under its query's
 * key, so the screen draws from it and asks nothing. The server wrote it through the contract the
 * query checks the API's answer with; the client checks it too, once the page is drawn (`checked`:
 * loading the contracts before would put their chunks and a round trip in front of the first
 * paint, which is what the answer in the page is there to spare). One that breaks its contract is
 * dropped and read from the API, whose answer is checked as ever. When the contract cannot load,
 * the answer stays: the API's would be refused for the same reason.
 */
export function seedPageData(
  queryClient: QueryClient,
  page: Document,
  contracts: PageQueryContracts,
  checked: Promise<unknown> = afterFirstPaint(),
): Promise<void> {
  const checks = pageQueriesFrom(page).map(async ({ query, key, data }) => {
    queryClient.setQueryData(key, data);
    await checked;
    const contract = await contracts[query]().catch(() => undefined);
    if (!contract || contract.safeParse(data).success) return;
    await queryClient.resetQueries({ queryKey: key, exact: true });
  });
  return Promise.all(checks).then(() => undefined);
}

import type { QueryClient } from '@tanstack/react-query';
import { PAGE_DATA_ELEMENT_ID, PAGE_QUERIES, type PageQuery } from '#shared/page-data.ts';
import type { z } from '#shared/validation.ts';

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
  const text = page.getElementById(PAGE_DATA_ELEMENT_ID)?.textContent;
  if (!text) return [];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [];
  }
  return Array.isArray(value) ? value.filter(isPageQuery) : [];
}

/**
 * Before the first render: each answer the page carries goes into the cache under its query's
 * key, once it meets the contract the query checks the API's answer with, so the screen draws
 * from it and asks nothing. An answer that does not, or whose contract cannot load, is left out:
 * the query then asks the API as before.
 */
export async function seedPageData(
  queryClient: QueryClient,
  page: Document,
  contracts: PageQueryContracts,
): Promise<void> {
  await Promise.all(
    pageQueriesFrom(page).map(async ({ query, key, data }) => {
      const contract = await contracts[query]().catch(() => undefined);
      const parsed = contract?.safeParse(data);
      if (parsed?.success) queryClient.setQueryData(key, parsed.data);
    }),
  );
}

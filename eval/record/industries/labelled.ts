/**
 * labelled.tsv: one-sentence home-page self-descriptions written for this project, 2–4 per sub-industry. They
 * are training data of the industry classifier (the only home-page text it learns from, and the only examples of
 * industries FinanceDatabase has no label for), so the record suite leaves out generated sites that paraphrase
 * them (training-overlap.ts).
 */
import { readFile } from 'node:fs/promises';

export interface Labelled {
  label: string;
  text: string;
}

export async function readLabelled(): Promise<Labelled[]> {
  const text = await readFile(new URL('./labelled.tsv', import.meta.url), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => {
      const [label = '', body = ''] = line.split('\t');
      return { label, text: body };
    });
}

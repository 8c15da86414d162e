/**
 * A real S3-compatible server (s3rver, a devDependency: `npm ci` installs it) on loopback, for the asset-store
 * contract suite and the end-to-end test: the AWS SDK talks HTTP to it exactly as to a bucket elsewhere.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

/** s3rver's fixed development credentials (it checks request signatures against them). */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

export interface S3Server {
  endpoint: string;
  /** The folder s3rver keeps its objects in: `<directory>/<bucket>/<key>._S3rver_object`. */
  directory: string;
  close(): Promise<void>;
}

/** Starts s3rver on a free loopback port with the given buckets, over a temp folder removed on close. */
export async function startS3Server(buckets: string[]): Promise<S3Server> {
  const directory = await mkdtemp(path.join(tmpdir(), 'brandbase-s3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: buckets.map((name) => ({ name })) });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    directory,
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

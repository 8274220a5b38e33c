export { fnv1a32 } from "./fnv.ts";
export { BUCKETS, bucketFor, bucketsFor } from "./bucket.ts";

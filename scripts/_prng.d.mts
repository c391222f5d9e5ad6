export declare function splitmix32(seed: number): () => number;
export declare function splitmix64(seed: number | bigint): () => bigint;

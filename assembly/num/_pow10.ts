// Internal to assembly/num/: the powers of ten that are exact doubles.
// 10^k = 5^k·2^k is exact while 5^k < 2^53, i.e. for k in [0, 22] (5^22 ≈ 2^51.1,
// 5^23 ≈ 2^53.4). With such a factor, one IEEE multiply or divide of an exact
// integer below 2^53 is the correctly rounded value of the decimal (Clinger,
// "How to read floating point numbers accurately", 1990): the parser's first
// stage (strtod.ts) and the formatter's short-decimal path (dtoa.ts) rest on it.

/** Largest k with 10^k an exact double. */
export const POW10_EXACT_MAX: i32 = 22;

/** 10^k for k in [0, POW10_EXACT_MAX], as f64. */
export const POW10_F64: usize = memory.data<f64>([
  1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
  1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
]);

/** GPU telemetry and cost: nvidia-smi parsing, the node aggregate, cost maths, the idle guard. */
export * from './smiValues';
export * from './smiParse';
export * from './smiStream';
export * from './aggregate';
export * from './cost';
export * from './idleGuard';
export * from './smiLoop';
export * from './gpuText';

import type { Plugin } from 'esbuild';

export declare const yogaWithoutFetch: Plugin;

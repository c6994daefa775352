/** The session's model presets: which one is active (`:model`), and one Broker per preset used. */
import type { AishConfig } from '../config/types';
import { Broker } from './broker';
import { presetNames, resolvePreset, type ResolvedPreset } from './presets';

export class Models {
  private activePreset: ResolvedPreset;
  private readonly brokers = new Map<string, Broker>();

  constructor(
    private readonly config: AishConfig,
    initial: string,
    private readonly env: NodeJS.ProcessEnv | undefined = process.env,
    /** The active preset changed. */
    private readonly onChange: () => void = () => {},
  ) {
    this.activePreset = resolvePreset(config, initial, env);
  }

  get active(): ResolvedPreset {
    return this.activePreset;
  }

  /** Switch presets; an unknown name throws a usage error naming the closest one. */
  select(name: string): ResolvedPreset {
    this.activePreset = resolvePreset(this.config, name, this.env);
    this.onChange();
    return this.activePreset;
  }

  resolve(name: string): ResolvedPreset {
    return resolvePreset(this.config, name, this.env);
  }

  names(): string[] {
    return presetNames(this.config);
  }

  broker(preset: ResolvedPreset = this.activePreset): Broker {
    let b = this.brokers.get(preset.name);
    if (!b) {
      b = new Broker(preset);
      this.brokers.set(preset.name, b);
    }
    return b;
  }
}

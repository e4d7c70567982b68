import { Switch as ArkSwitch } from '@ark-ui/react/switch';
import type { ReactNode } from 'react';
import { cx } from 'styled-system/css';
import { switchRecipe, type SwitchRecipeVariantProps } from 'styled-system/recipes/switch-recipe';

export type SwitchProps = SwitchRecipeVariantProps & {
  children: ReactNode;
  checked?: boolean;
  defaultChecked?: boolean;
  onCheckedChange?: (checked: boolean) => void;
  name?: string;
  disabled?: boolean;
  className?: string;
};

export function Switch({ children, checked, defaultChecked, onCheckedChange, name, disabled, size, className }: SwitchProps) {
  const styles = switchRecipe({ size });
  return (
    <ArkSwitch.Root className={cx(styles.root, className)} checked={checked} defaultChecked={defaultChecked} onCheckedChange={(details) => onCheckedChange?.(details.checked)} name={name} disabled={disabled}>
      <ArkSwitch.Control className={styles.control}>
        <ArkSwitch.Thumb className={styles.thumb} />
      </ArkSwitch.Control>
      <ArkSwitch.Label className={styles.label}>{children}</ArkSwitch.Label>
      <ArkSwitch.HiddenInput />
    </ArkSwitch.Root>
  );
}

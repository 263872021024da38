import type { ReactNode } from "react";
import { Button, OverlayArrow, Tooltip, TooltipTrigger } from "react-aria-components";
import { Icon } from "./Icon";

/**
 * A help button with a tooltip (React Aria): shown on hover and on keyboard focus, Escape hides it,
 * and it is placed, flipped and shifted so that it stays inside the screen (12 px from its edges).
 */
export function HelpTooltip({
  label,
  children,
  onOpenChange,
}: {
  /** The button's accessible name, e.g. 'About MRR'. */
  label: string;
  children: ReactNode;
  onOpenChange?: (open: boolean) => void;
}) {
  return (
    <TooltipTrigger delay={300} closeDelay={150} onOpenChange={onOpenChange}>
      <Button className="icon-button icon-button--help" aria-label={label}>
        <Icon name="help" size={16} />
      </Button>
      <Tooltip className="tooltip" placement="top" offset={8} containerPadding={12}>
        <OverlayArrow className="tooltip__arrow">
          <svg width={12} height={12} viewBox="0 0 12 12" aria-hidden="true">
            <path d="M0 0 L6 6 L12 0" />
          </svg>
        </OverlayArrow>
        {children}
      </Tooltip>
    </TooltipTrigger>
  );
}

import type { ReactNode } from "react";
import { Button, Menu, MenuItem, MenuTrigger, Popover } from "react-aria-components";

export interface MenuAction {
  id: string;
  label: string;
  onAction: () => void;
  isDisabled?: boolean;
}

/** A button that opens a menu of actions (React Aria): arrow keys, type-ahead, Escape. */
export function MenuButton({
  label,
  buttonContent,
  actions,
  className = "icon-button",
}: {
  label: string;
  buttonContent: ReactNode;
  actions: MenuAction[];
  className?: string;
}) {
  return (
    <MenuTrigger>
      <Button className={className} aria-label={label}>
        {buttonContent}
      </Button>
      <Popover className="popover popover--menu" placement="bottom end" offset={6} containerPadding={12}>
        <Menu
          className="menu"
          onAction={(key) => actions.find((a) => a.id === key)?.onAction()}
          disabledKeys={actions.filter((a) => a.isDisabled).map((a) => a.id)}
        >
          {actions.map((a) => (
            <MenuItem key={a.id} id={a.id} className="menu__item">
              {a.label}
            </MenuItem>
          ))}
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}

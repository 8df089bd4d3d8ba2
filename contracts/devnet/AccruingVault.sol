// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC4626} from "@openzeppelin/contracts/token/ERC20/extensions/ERC4626.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

/// @title AccruingVault: an ERC-4626 vault whose share price grows on-chain over time (devnet yield).
/// @notice Whoever funds it with `fundYield` adds to a yield reserve; the reserve drips into `totalAssets`
/// linearly at `yieldPerSecond` until it is empty. So the share price rises every second while the reserve
/// lasts, with no keeper.
contract AccruingVault is ERC4626 {
    using SafeERC20 for IERC20;

    /// @notice Underlying base units released from the reserve into totalAssets per second.
    uint256 public immutable yieldPerSecond;
    /// @notice Yield funded but not yet released, as of `lastDrip`.
    uint256 public reserveAtLastDrip;
    /// @notice When the reserve was last settled.
    uint256 public lastDrip;

    /// @notice Yield was added to the reserve.
    event YieldFunded(address indexed from, uint256 amount);

    /// @param asset_ The underlying token.
    /// @param name_ The share token's name.
    /// @param symbol_ The share token's symbol.
    /// @param yieldPerSecond_ Underlying base units released per second while the reserve lasts.
    constructor(IERC20 asset_, string memory name_, string memory symbol_, uint256 yieldPerSecond_)
        ERC20(name_, symbol_)
        ERC4626(asset_)
    {
        yieldPerSecond = yieldPerSecond_;
        lastDrip = block.timestamp;
    }

    /// @notice Pulls `amount` of the underlying from the caller into the yield reserve.
    /// @param amount Underlying base units.
    function fundYield(uint256 amount) external {
        reserveAtLastDrip = undistributedYield();
        lastDrip = block.timestamp;
        reserveAtLastDrip += amount;
        IERC20(asset()).safeTransferFrom(msg.sender, address(this), amount);
        emit YieldFunded(msg.sender, amount);
    }

    /// @notice Yield still held back in the reserve now.
    /// @return Underlying base units not yet released.
    function undistributedYield() public view returns (uint256) {
        uint256 released = (block.timestamp - lastDrip) * yieldPerSecond;
        return released >= reserveAtLastDrip ? 0 : reserveAtLastDrip - released;
    }

    /// @notice Underlying held minus the part of the reserve not yet released.
    /// @return Total managed assets.
    function totalAssets() public view override returns (uint256) {
        return IERC20(asset()).balanceOf(address(this)) - undistributedYield();
    }
}

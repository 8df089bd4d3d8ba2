// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

/// @title MaliciousVault (TEST ONLY): a vault-shaped target whose `deposit` pulls the assets and then makes a
/// chosen call (e.g. re-entering the intent account), reverting if that call fails.
contract MaliciousVault {
    IERC20 public immutable asset;
    address public hookTarget;
    bytes public hookData;

    constructor(IERC20 asset_) {
        asset = asset_;
    }

    /// @notice Sets the call made inside `deposit`.
    /// @param target The contract to call.
    /// @param data The calldata.
    function setHook(address target, bytes calldata data) external {
        hookTarget = target;
        hookData = data;
    }

    /// @notice ERC-4626-shaped deposit: pulls `assets` from the caller, then runs the hook.
    /// @param assets Amount of the asset.
    /// @param receiver Ignored.
    /// @return shares Always `assets`.
    function deposit(uint256 assets, address receiver) external returns (uint256 shares) {
        receiver;
        asset.transferFrom(msg.sender, address(this), assets);
        if (hookTarget != address(0)) {
            (bool ok, bytes memory result) = hookTarget.call(hookData);
            if (!ok) {
                assembly ("memory-safe") {
                    revert(add(result, 0x20), mload(result))
                }
            }
        }
        return assets;
    }
}

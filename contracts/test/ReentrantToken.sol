// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @title ReentrantToken (TEST ONLY): an ERC-20 that calls a chosen target during every transfer.
/// @notice Used to check that accounts and settlers reject re-entry. With `bubble` set, a failed re-entry
/// reverts the transfer (so the outer call reverts); without it the outcome is recorded in `lastReentryOk`.
contract ReentrantToken is ERC20 {
    address public reentryTarget;
    bytes public reentryData;
    bool public bubble;
    bool public lastReentryOk;
    bool private _entered;

    /// @notice A re-entry attempt was made.
    event ReentryAttempted(address target, bool ok, bytes result);

    constructor() ERC20("Reentrant", "REENT") {}

    /// @notice Mints test tokens to anyone.
    /// @param to The recipient.
    /// @param amount The amount.
    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }

    /// @notice Sets the call made during the next transfers (target zero disables it).
    /// @param target The contract to re-enter.
    /// @param data The calldata.
    /// @param bubble_ Whether a failed re-entry reverts the transfer.
    function setReentry(address target, bytes calldata data, bool bubble_) external {
        reentryTarget = target;
        reentryData = data;
        bubble = bubble_;
    }

    function _update(address from, address to, uint256 value) internal override {
        super._update(from, to, value);
        if (reentryTarget == address(0) || _entered || from == address(0)) return;
        _entered = true;
        (bool ok, bytes memory result) = reentryTarget.call(reentryData);
        _entered = false;
        lastReentryOk = ok;
        emit ReentryAttempted(reentryTarget, ok, result);
        if (!ok && bubble) {
            assembly ("memory-safe") {
                revert(add(result, 0x20), mload(result))
            }
        }
    }
}

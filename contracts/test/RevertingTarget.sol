// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

/// @title RevertingTarget (TEST ONLY): a call target that fails on demand and rejects native currency.
contract RevertingTarget {
    /// @notice The failure `fail` reverts with.
    error AlwaysFails(uint256 code);

    /// @notice Counts successful `succeed` calls.
    uint256 public calls;

    /// @notice Always reverts with AlwaysFails(code).
    /// @param code Echoed in the error.
    function fail(uint256 code) external pure {
        revert AlwaysFails(code);
    }

    /// @notice Succeeds and counts.
    function succeed() external {
        calls += 1;
    }

    /// @notice Burns all gas it is given (for gas-griefing tests).
    function burnGas() external pure {
        while (true) {}
    }

    /// @notice Rejects native currency (a refund recipient that cannot receive it).
    receive() external payable {
        revert AlwaysFails(0);
    }
}

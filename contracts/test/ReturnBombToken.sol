// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @title ReturnBombToken (TEST ONLY): an ERC-20 whose `transfer` reverts with a huge revert payload.
/// @notice A caller that copies all return data pays for it in memory expansion; ours must not.
contract ReturnBombToken is ERC20 {
    /// @notice Bytes of revert data `transfer` returns when armed.
    uint256 public bombBytes;

    constructor() ERC20("Return Bomb", "BOMB") {}

    /// @notice Mints test tokens to anyone.
    /// @param to The recipient.
    /// @param amount The amount.
    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }

    /// @notice Arms the bomb (0 disarms it).
    /// @param size Bytes of revert data.
    function arm(uint256 size) external {
        bombBytes = size;
    }

    /// @notice Reverts with `bombBytes` of data when armed, otherwise a normal transfer.
    /// @param to The recipient.
    /// @param value The amount.
    /// @return True on success.
    function transfer(address to, uint256 value) public override returns (bool) {
        uint256 size = bombBytes;
        if (size > 0) {
            assembly ("memory-safe") {
                revert(0, size)
            }
        }
        return super.transfer(to, value);
    }
}

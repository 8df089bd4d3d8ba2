// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {IDestinationSettler} from "./interfaces/IDestinationSettler.sol";
import {OrderData} from "./interfaces/IntentTypes.sol";
import {IntentHash} from "./libraries/IntentHash.sol";

/// @title DestinationSettler: records fills and moves the filler's tokens to the order's recipient.
/// @notice The order id is recomputed from the order data, so a fill with any altered field is keyed
/// differently and can never be settled on the origin. Each order id can be filled once. The recipient is
/// never called; only the token is.
contract DestinationSettler is IDestinationSettler, ReentrancyGuardTransient {
    using SafeERC20 for IERC20;

    mapping(bytes32 orderId => FillRecord) private _fills;

    /// @inheritdoc IDestinationSettler
    function fill(OrderData calldata orderData, uint256 originChainId, address originSettler, address repaymentAddr)
        external
        nonReentrant
        returns (bytes32 orderId)
    {
        if (orderData.destChainId != block.chainid) revert WrongChain(orderData.destChainId, block.chainid);
        if (orderData.destSettler != address(this)) revert WrongSettler(orderData.destSettler, address(this));
        if (block.timestamp > orderData.fillDeadline) {
            revert FillDeadlinePassed(orderData.fillDeadline, block.timestamp);
        }
        orderId = IntentHash.orderId(orderData, originChainId, originSettler);
        address previous = _fills[orderId].filler;
        if (previous != address(0)) revert AlreadyFilled(orderId, previous);
        _fills[orderId] = FillRecord({filler: msg.sender, repaymentAddr: repaymentAddr});

        IERC20 token = IERC20(orderData.outputToken);
        uint256 before = token.balanceOf(orderData.recipient);
        token.safeTransferFrom(msg.sender, orderData.recipient, orderData.outputAmount);
        uint256 received = token.balanceOf(orderData.recipient) - before;
        if (received != orderData.outputAmount) revert ShortTransfer(orderData.outputAmount, received);
        emit Filled(orderId, msg.sender, repaymentAddr, orderData.recipient, orderData.outputAmount);
    }

    /// @inheritdoc IDestinationSettler
    function fillStatus(bytes32 orderId) external view returns (FillStatus) {
        return _fills[orderId].filler == address(0) ? FillStatus.Unfilled : FillStatus.Filled;
    }

    /// @inheritdoc IDestinationSettler
    function fillOf(bytes32 orderId) external view returns (FillRecord memory) {
        return _fills[orderId];
    }
}
